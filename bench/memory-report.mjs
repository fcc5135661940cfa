// Loaded into the /api bench's server (`node --import bench/memory-report.mjs`):
// on SIGUSR2 it writes the process's memory, split as Node sees it (the V8
// heap, external memory, array buffers, RSS), to BENCH_MEMORY_REPORT, so
// the bench can tell which part grows over the page loads.
import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const target = process.env.BENCH_MEMORY_REPORT;
let seq = 0;
if (target) {
  process.on('SIGUSR2', () => {
    seq += 1;
    const spaces = Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, space.space_size]));
    writeFileSync(target, JSON.stringify({ seq, ...process.memoryUsage(), spaces }));
  });
}
