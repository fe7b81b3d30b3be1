// CPU time per thread of this process (Linux /proc/self/task/<tid>/stat: utime + stime, in clock ticks
// of 10 ms), to split a parallel run's CPU into the calling thread, the Workers and V8's helper threads
// (concurrent GC, background compiles). Used by the `parallel` bench suite and scripts/profile-parallel.mjs;
// the machine's busy CPU and a process tree's CPU, by `parallel` and `threads`.
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

// Busy CPU ms of the whole machine (/proc/stat, all CPUs: user + nice + system + irq + softirq + steal),
// or null where /proc is missing: minus this process's CPU it is what other processes took meanwhile,
// a same-time measure of the load (the load average lags by a minute).
export function machineBusyMs() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return (f[0] + f[1] + f[2] + f[5] + f[6] + f[7]) * 10;
  } catch {
    return null;
  }
}

/** CPU ms (utime + stime) of process `root` and all its descendants (e.g. this process and a browser it started). */
export function treeCpuMs(root) {
  const ppid = new Map();
  const cpu = new Map();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ppid.set(Number(e), Number(f[1]));
      cpu.set(Number(e), (Number(f[11]) + Number(f[12])) * 10);  // utime + stime, clock ticks of 10 ms
    } catch { /* exited */ }
  }
  const mine = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of ppid) if (!mine.has(pid) && mine.has(parent)) { mine.add(pid); grew = true; }
  }
  let sum = 0;
  for (const pid of mine) sum += cpu.get(pid) ?? 0;
  return sum;
}
