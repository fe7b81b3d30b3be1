// One hostile call and its classification, shared by the Node worker (worker.mjs) and the browser
// module Worker (browser-worker.mjs): run the entry point, await a promise up to a time limit, sort
// the outcome, then run the canary (a failing canary = the module is dead = "abort").
import { HOSTILE_VALUES, HostileValueError } from './values.mjs';
import { discoverEntries, invoke, argsFor, canary, ITEM_ECHOES } from './entries.mjs';

/** Returns runCall(call) → {outcome, code?, detail?, dead} for the loaded package `api`. */
export function createRunner(api, { asyncLimitMs = 20000 } = {}) {
  const entries = discoverEntries(api);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const values = new Map(HOSTILE_VALUES.map((v) => [v.name, v]));
  // First non-finite number in a result (NaN/±Infinity anywhere in it), or null. Iterative, bounded.
  // Objects that are the caller's own hostile value (e.g. `details` handed to new RagwasmError and
  // kept as given) are echoes, not results the library computed: they are not searched.
  function findNonFinite(root, echoed, echoedItems = []) {
    const stack = [[root, 'result']];
    const seen = new Set([echoed]);
    let budget = 200000;
    while (stack.length > 0 && budget-- > 0) {
      const [v, path] = stack.pop();
      if (Object.is(v, echoed)) continue;
      if (typeof v === 'number') {
        if (!Number.isFinite(v) && !echoedItems.some((x) => Object.is(x, v))) return `${path} = ${v}`;
        continue;
      }
      if (v === null || typeof v !== 'object' || seen.has(v)) continue;
      seen.add(v);
      // A result may hold the caller's hostile value (e.g. new RagwasmError(revokedProxy)): probes guarded.
      let typed = false;
      try { typed = v instanceof Float32Array || v instanceof Float64Array; } catch { continue; }
      if (typed) {
        for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return `${path}[${i}] = ${v[i]}`;
        continue;
      }
      try { if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) continue; } catch { continue; }
      let isMap = false;
      try { isMap = v instanceof Map; } catch { continue; }
      if (isMap) { for (const [k, x] of v) stack.push([x, `${path}.get(${String(k)})`]); continue; }
      let keys;
      try { keys = Object.keys(v); } catch { continue; }
      if (keys.length > 100000) continue;
      for (const k of keys) {
        let x;
        try { x = v[k]; } catch { continue; }
        stack.push([x, `${path}.${k}`]);
      }
    }
    return null;
  }

  function errorInfo(e) {
    // INTERNAL is the wrapper's name for an error the library did not expect (a WASM trap, a stack
    // overflow in the glue): a failing outcome, not a clean refusal (issue #33).
    if (e instanceof api.RagwasmError) return { outcome: e.code === 'INTERNAL' ? 'internal' : 'ragwasm', code: e.code, detail: e.message.slice(0, 200) };
    if (e instanceof HostileValueError) return { outcome: 'rethrown', detail: e.message };
    let detail;
    try { detail = `${e?.name}: ${String(e?.message).slice(0, 200)}`; } catch { detail = 'unprintable error'; }
    return { outcome: 'non-ragwasm', detail };
  }

  async function runOne(call) {
    const e = byId.get(call.entry);
    const v = values.get(call.value);
    const hostile = v.make();
    const args = argsFor(e, call.position, hostile);
    let result;
    try {
      result = invoke(api, e, args);
      if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
        let timer;
        const limit = new Promise((resolve) => { timer = setTimeout(() => resolve(HANG), asyncLimitMs); });
        try {
          result = await Promise.race([result, limit]);
        } finally {
          clearTimeout(timer);
        }
        if (result === HANG) return { outcome: 'hang', detail: `promise unsettled after ${asyncLimitMs} ms` };
      }
    } catch (err) {
      return errorInfo(err);
    }
    let items = [];
    if (ITEM_ECHOES.has(e.id)) {
      try { if (Array.isArray(hostile) && hostile.length <= 1000) items = Array.from(hostile); } catch { items = []; }
    }
    const bad = findNonFinite(result, hostile, items);
    try { if (result && typeof result.dispose === 'function' && result !== api) result.dispose(); } catch { /* already disposed, or not ours */ }
    if (bad) return { outcome: 'nan', detail: bad.slice(0, 200) };
    return { outcome: 'ok' };
  }
  const HANG = Symbol('hang');

  return async function runCall(call) {
    const r = await runOne(call);
    try {
      canary(api);
    } catch (err) {
      let detail;
      try { detail = String(err?.message ?? err).slice(0, 200); } catch { detail = 'unprintable'; }
      return { outcome: 'abort', detail: `after ${r.outcome}: canary failed: ${detail}`, dead: true };
    }
    return { ...r, dead: false };
  };
}
