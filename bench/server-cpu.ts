// CPU time a server process tree has used, from Linux's scheduler statistics
// (/proc/<pid>/task/<tid>/schedstat, nanoseconds on a core, every thread):
// what a request costs the server, which another process's load barely
// moves, unlike its latency on a shared machine.
import { readdirSync, readFileSync } from 'node:fs';

function threadsNs(pid: number): number {
  let total = 0;
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const tid of tids) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0] ?? 0);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return total;
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU ms used so far by the process and its descendants (0 where /proc has no such statistics). */
export function processTreeCpuMs(pid: number): number {
  return (threadsNs(pid) + childrenOf(pid).reduce((sum, child) => sum + processTreeCpuMs(child) * 1e6, 0)) / 1e6;
}
