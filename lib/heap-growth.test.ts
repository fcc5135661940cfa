// The server's heap stays near what is alive (lib/heap-growth.ts): a
// process that keeps replacing a live set, as page renders do, in a child
// of its own with and without the bound.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { boundHeapGrowth } from './heap-growth';

const MODULE = fileURLToPath(new URL('./heap-growth.ts', import.meta.url));

/** Peak heap size (MiB) of a process that replaces a 60 MB live set 4,000 times, bounded or not. */
function peakHeapMiB(bounded: boolean): number {
  const script = `
    const { boundHeapGrowth } = await import(${JSON.stringify(MODULE)});
    if (${bounded}) boundHeapGrowth();
    const live = [];
    for (let i = 0; i < 600; i++) live.push(new Array(12_500).fill(i));
    let peak = 0;
    for (let round = 0; round < 4000; round++) {
      live[round % live.length] = new Array(12_500).fill(round);
      peak = Math.max(peak, process.memoryUsage().heapTotal);
    }
    console.log(Math.round(peak / 2 ** 20));
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  return Number(child.stdout.trim());
}

describe('boundHeapGrowth()', () => {
  it('keeps the heap far below what V8 lets it grow to by itself', () => {
    const free = peakHeapMiB(false);
    const bounded = peakHeapMiB(true);
    expect(bounded).toBeLessThan(free * 0.7);
  }, 60_000);

  it('leaves a factor the process was started with', () => {
    expect(boundHeapGrowth(['--heap-growing-percent=50'])).toBe(false);
  });
});
