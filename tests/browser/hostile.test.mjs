// Issue #19 in the browser: the hostile-argument harness's seeded subset (same plan as
// tests/js/hostile/hostile.test.mjs) runs in headless Chromium inside a module Worker; a hang terminates the
// Worker and a fresh one continues. Fails on any abort, hang, crash, non-RagwasmError error or
// NaN/Infinity result not on the expected-failure list, and checks that the page itself still runs
// ragwasm afterwards. The test's server also serves /tests/js/hostile/ (startServer extraAllowed).
import test from 'node:test';
import assert from 'node:assert/strict';
import { withPage } from './harness.mjs';
import { BROWSER_ENTRY_FILES, discoverEntries, loadApi } from '../js/hostile/entries.mjs';
import { planCalls, summarize, formatTable, QUICK_PER_POSITION } from '../js/hostile/run.mjs';

const seed = Number(process.env.RAGWASM_HOSTILE_SEED ?? 19);
// The entries a page loads (ragwasm/postgres is for Node servers).
const api = await loadApi(new URL('../../web/src/', import.meta.url).href, BROWSER_ENTRY_FILES);

test('#19 the seeded hostile-argument subset runs in a module Worker in Chromium and the page survives', async () => {
  const calls = planCalls(discoverEntries(api), { full: false, seed, perPosition: QUICK_PER_POSITION });
  await withPage(async ({ page, url, consoleErrors }) => {
    let crashed = false;
    page.on('crash', () => { crashed = true; });
    await page.goto(`${url}web/index.html`);
    const t0 = Date.now();
    const results = await page.evaluate(async ({ calls, timeoutMs }) => {
      const results = new Array(calls.length);
      let queue = calls.slice();
      while (queue.length > 0) {
        await new Promise((resolve) => {
          const w = new Worker('/tests/js/hostile/browser-worker.mjs', { type: 'module' });
          let current = null;
          let timer = null;
          const end = () => {
            clearTimeout(timer);
            w.terminate();
            queue = queue.filter((c) => results[c.key] === undefined);
            resolve();
          };
          w.onerror = (e) => {
            e.preventDefault();
            if (current !== null) results[current] = { outcome: 'crash', detail: `worker error: ${e.message}` };
            else if (queue.length > 0) results[queue[0].key] = { outcome: 'crash', detail: `worker failed to start: ${e.message}` };
            end();
          };
          w.onmessage = (ev) => {
            const m = ev.data;
            if (m.type === 'ready') w.postMessage({ calls: queue, asyncLimitMs: timeoutMs });
            else if (m.type === 'start') {
              current = m.key;
              clearTimeout(timer);
              timer = setTimeout(() => { results[current] = { outcome: 'hang', detail: `no answer within ${timeoutMs + 5000} ms` }; end(); }, timeoutMs + 5000);
            } else if (m.type === 'done') {
              clearTimeout(timer);
              results[m.key] = { outcome: m.outcome, code: m.code, detail: m.detail };
              current = null;
              if (m.outcome === 'abort') end();
            } else if (m.type === 'finished') end();
          };
        });
      }
      // The page itself still loads and runs ragwasm.
      const a = await import('/web/src/index.js');
      await a.init();
      const { metrics } = await import('/web/src/eval.js');
      return { results, pageCanary: metrics.exactMatch('a', ['a']) };
    }, { calls, timeoutMs: 20000 });
    const rows = calls.map((c, i) => ({ ...c, ...(results.results[i] ?? { outcome: 'crash', detail: 'no result' }) }));
    const summary = summarize(rows);
    const aborted = consoleErrors.filter((e) => /Aborted\(/.test(e)).length;
    console.log(formatTable(summary, { header: `hostile-argument harness in Chromium (module Worker): seed ${seed}, ${QUICK_PER_POSITION} values per position, ${((Date.now() - t0) / 1000).toFixed(1)} s, "Aborted(" console errors: ${aborted}` }));
    assert.equal(crashed, false, 'the page crashed');
    assert.equal(results.pageCanary, 1, 'the page still runs ragwasm after the run');
    assert.deepEqual(summary.failures.map((f) => `${f.outcome}: ${f.entry} arg ${f.position} = ${f.value}: ${f.detail ?? ''}`), [],
      `seed ${seed}: replay with RAGWASM_HOSTILE_SEED=${seed} node --test tests/browser/hostile.test.mjs`);
  }, { extraAllowed: ['/tests/js/hostile/'] });
});
