// CPU time per thread of this process (Linux /proc/self/task/<tid>/stat: utime + stime, in clock ticks
// of 10 ms), to split a parallel run's CPU into the calling thread, the Workers and V8's helper threads
// (concurrent GC, background compiles). Used by the `parallel` bench suite and scripts/profile-parallel.mjs.
import { readFileSync, readdirSync } from 'node:fs';

const TICK_MS = 10;

/** Map tid -> CPU ms of every thread of this process, or null where /proc is missing. */
export function threadCpu() {
  try {
    const out = new Map();
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.set(tid, (Number(f[11]) + Number(f[12])) * TICK_MS);
      } catch { /* the thread ended between the listing and the read */ }
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * {main, workers: [CPU ms per Worker], helpers} between two threadCpu() snapshots `before` and `after`;
 * Workers are the threads absent from `beforePool` (a snapshot taken before the pool started).
 */
export function threadSplit(beforePool, before, after) {
  if (!beforePool || !before || !after) return null;
  const d = (tid) => (after.get(tid) ?? 0) - (before.get(tid) ?? 0);
  const main = String(process.pid);
  const workers = [];
  let helpers = 0;
  for (const tid of after.keys()) {
    if (tid === main) continue;
    if (!beforePool.has(tid)) workers.push(d(tid));
    else helpers += d(tid);
  }
  return { main: d(main), workers, helpers };
}
