// Loaded into a door's process by bench/door-cpu.ts (`node --import
// bench/gc-report.mjs`): counts the process's garbage collections by kind,
// with their main-thread pauses, and on SIGUSR2 writes the counts so far to
// BENCH_GC_REPORT.<pid>, so the probe can take the difference over a batch.
import { writeFileSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';

const target = process.env.BENCH_GC_REPORT;
if (target) {
  const counts = { minor: 0, major: 0, other: 0, minorMs: 0, majorMs: 0, otherMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = entry.detail?.kind;
      const name =
        kind === constants.NODE_PERFORMANCE_GC_MINOR ? 'minor' : kind === constants.NODE_PERFORMANCE_GC_MAJOR ? 'major' : 'other';
      counts[name] += 1;
      counts[`${name}Ms`] += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('SIGUSR2', () => {
    const { heapUsed, heapTotal } = process.memoryUsage();
    writeFileSync(
      `${target}.${process.pid}`,
      JSON.stringify({ ...counts, heapUsedMiB: heapUsed / 2 ** 20, heapTotalMiB: heapTotal / 2 ** 20 }),
    );
  });
}
