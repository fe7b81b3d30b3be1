// Issue #19: the seeded subset of the hostile-argument harness (tests/js/hostile/, docs/reliability.md).
// Every entry point discovered from the package entries (index, llm, onnx, parse, postgres) × every argument position ×
// QUICK_PER_POSITION (4) hostile values drawn with a fixed seed, each call in a worker thread with a time
// limit and heap limits, a known-good canary call after each one. Fails on any abort, hang, crash,
// non-RagwasmError error or NaN/Infinity result that is not on the expected-failure list
// (tests/js/hostile/expected.mjs, rows owned by other branches). The full catalogue: `npm run fuzz`.
// Issue #33: an INTERNAL RagwasmError is a failure too, and the hostile file families
// (tests/js/hostile/files.mjs) run here through one seeded CLI command each.
// Seed: RAGWASM_HOSTILE_SEED (default 19); printed with the table.
import test from 'node:test';
import assert from 'node:assert/strict';
import { runHarness, formatTable, QUICK_PER_POSITION } from '../hostile/run.mjs';
import { HOSTILE_VALUES } from '../hostile/values.mjs';
import { GOOD, FACTORIES, discoverEntries, invoke, loadApi } from '../hostile/entries.mjs';

const api = await loadApi(new URL('../../../web/src/', import.meta.url).href);

const seed = Number(process.env.RAGWASM_HOSTILE_SEED ?? 19);

test('#19 the harness valid arguments and factories work so hostile values reach every later position', async () => {
  await api.init();
  const entries = new Map(discoverEntries(api).map((e) => [e.id, e]));
  for (const [name, make] of Object.entries(FACTORIES)) make(api).dispose?.();
  for (const [id, args] of Object.entries(GOOD)) {
    assert.ok(entries.has(id), `GOOD row ${id} names no discovered entry point`);
    await invoke(api, entries.get(id), args);
  }
});

test('#19 every export survives 4 seeded hostile values per argument position with no abort hang crash plain error or NaN', async () => {
  const t0 = Date.now();
  const r = await runHarness({ full: false, seed, perPosition: QUICK_PER_POSITION, timeoutMs: 20000 });
  const header = `hostile-argument harness, seeded subset: seed ${seed}, ${QUICK_PER_POSITION} of ${HOSTILE_VALUES.filter((v) => !v.full).length} values per position, `
    + `${((Date.now() - t0) / 1000).toFixed(1)} s, "Aborted(" lines on worker stderr: ${r.abortedLines}`;
  console.log(formatTable(r.summary, { header }));
  assert.ok(r.entries.length >= 150, `expected at least 150 entry points discovered from the exports, got ${r.entries.length}`);
  assert.equal(r.results.filter((x) => x === undefined).length, 0, 'every planned call has an outcome');
  assert.deepEqual(r.summary.failures.map((f) => `${f.outcome}: ${f.entry} arg ${f.position} = ${f.value}: ${f.detail ?? ''}`), [],
    `seed ${seed}: replay with RAGWASM_HOSTILE_SEED=${seed} node --test tests/js/hostile/hostile.test.mjs`);
});

// Issue #33: the hostile file families (tests/js/hostile/files.mjs) — manifest traversal, symlinks out
// of the folder and to /dev/zero, FIFOs, a 300 MB sparse file, DOCX zip bombs, 2 MB of unclosed HTML
// tags, BOMs, malformed corpus lines — each through one seeded CLI command (the full run: npm run fuzz).
test('#33 every hostile file family through one seeded CLI command has no hang crash stack trace leak or raw control character', async () => {
  const { runFileFamilies, formatFileTable, FILE_FAILING, FILE_FAMILIES } = await import('../hostile/files.mjs');
  const { seededRandom } = await import('../helpers.mjs');
  const { rows } = await runFileFamilies({ full: false, rand: seededRandom(seed), perFamily: 1, timeoutMs: 60000 });
  console.log(formatFileTable(rows));
  assert.equal(new Set(rows.map((r) => r.family)).size, FILE_FAMILIES.filter((f) => !f.full).length, 'every quick family ran');
  assert.deepEqual(rows.filter((r) => FILE_FAILING.has(r.outcome)).map((r) => `${r.outcome}: ${r.family} / ${r.command}: ${r.detail}`), [],
    `seed ${seed}: replay with RAGWASM_HOSTILE_SEED=${seed} node --test tests/js/hostile/hostile.test.mjs`);
});

test('#33 an INTERNAL RagwasmError is a failing outcome of the harness not a clean refusal', async () => {
  await api.init();
  const { createRunner } = await import('../hostile/call.mjs');
  const { FAILING, summarize } = await import('../hostile/run.mjs');
  const fake = { ...api, brokenEntry: () => { throw new api.RagwasmError('INTERNAL', 'ragwasm: internal error: Maximum call stack size exceeded'); } };
  const r = await createRunner(fake)({ key: 0, entry: 'brokenEntry', position: 0, value: 'null' });
  assert.equal(r.outcome, 'internal');
  assert.ok(FAILING.has('internal'));
  const s = summarize([{ entry: 'brokenEntry', position: 0, value: 'null', ...r }]);
  assert.equal(s.failures.length, 1);
});
