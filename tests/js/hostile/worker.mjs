// Worker side of the hostile-argument harness: loads the package, runs its share of calls one at a
// time, classifies each outcome and runs the canary after each call. The parent enforces the time
// limit (a synchronous hang cannot be interrupted from inside) and sees crashes as worker exits.
import { parentPort, workerData } from 'node:worker_threads';
import { HOSTILE_VALUES, HostileValueError } from './values.mjs';
import { discoverEntries, invoke, argsFor, canary } from './entries.mjs';

const api = await import(new URL('../../../web/src/index.js', import.meta.url).href);
await api.init();
// No network from a hostile call: any fetch fails at once with an error the classifier names.
globalThis.fetch = async () => { throw new api.RagwasmError('NETWORK', 'ragwasm: hostile harness: network disabled'); };
const entries = discoverEntries(api);
const byId = new Map(entries.map((e) => [e.id, e]));
const values = new Map(HOSTILE_VALUES.map((v) => [v.name, v]));

// First non-finite number in a result (NaN/±Infinity anywhere in it), or null. Iterative, bounded.
function findNonFinite(root) {
  const stack = [[root, 'result']];
  const seen = new Set();
  let budget = 200000;
  while (stack.length > 0 && budget-- > 0) {
    const [v, path] = stack.pop();
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return `${path} = ${v}`;
      continue;
    }
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    if (v instanceof Float32Array || v instanceof Float64Array) {
      for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return `${path}[${i}] = ${v[i]}`;
      continue;
    }
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) continue;
    if (v instanceof Map) { for (const [k, x] of v) stack.push([x, `${path}.get(${String(k)})`]); continue; }
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
  if (e instanceof api.RagwasmError) return { outcome: 'ragwasm', code: e.code, detail: e.message.slice(0, 200) };
  if (e instanceof HostileValueError) return { outcome: 'rethrown', detail: e.message };
  let detail;
  try { detail = `${e?.name}: ${String(e?.message).slice(0, 200)}`; } catch { detail = 'unprintable error'; }
  return { outcome: 'non-ragwasm', detail };
}

const ASYNC_LIMIT_MS = workerData.asyncLimitMs;

async function runOne(call) {
  const e = byId.get(call.entry);
  const v = values.get(call.value);
  const args = argsFor(e, call.position, v.make());
  let result;
  try {
    result = invoke(api, e, args);
    if (result && typeof result.then === 'function') {
      let timer;
      const limit = new Promise((resolve) => { timer = setTimeout(() => resolve(HANG), ASYNC_LIMIT_MS); });
      result = await Promise.race([result, limit]);
      clearTimeout(timer);
      if (result === HANG) return { outcome: 'hang', detail: `promise unsettled after ${ASYNC_LIMIT_MS} ms` };
    }
  } catch (err) {
    return errorInfo(err);
  }
  const bad = findNonFinite(result);
  try { if (result && typeof result.dispose === 'function' && result !== api) result.dispose(); } catch { /* already disposed */ }
  if (bad) return { outcome: 'nan', detail: bad.slice(0, 200) };
  return { outcome: 'ok' };
}
const HANG = Symbol('hang');

for (const call of workerData.calls) {
  parentPort.postMessage({ type: 'start', key: call.key });
  const r = await runOne(call);
  try {
    canary(api);
  } catch (err) {
    let detail;
    try { detail = String(err?.message ?? err).slice(0, 200); } catch { detail = 'unprintable'; }
    parentPort.postMessage({ type: 'done', key: call.key, outcome: 'abort', detail: `after ${r.outcome}: canary failed: ${detail}` });
    process.exit(3); // the module is dead; the parent starts a fresh worker for the remaining calls
  }
  parentPort.postMessage({ type: 'done', key: call.key, ...r });
}
parentPort.postMessage({ type: 'finished' });
