// How far V8 lets the server's heap grow past what a full garbage
// collection leaves alive before it collects again. V8 picks a factor of up
// to 4 by itself, tuned for throughput: a page render keeps a few hundred
// kilobytes alive across young collections, so they reach the old
// generation, and the heap filled up to twice its live size before a full
// collection, 150 MiB of RSS more after 1,000 page loads than after 100
// (docs/benchmarks.md, issue 25). A fixed 1.5 keeps it near the live size
// (3 MiB more over the same loads); the full collections come more often,
// about a tenth more CPU per page load, but mark concurrently, so the
// pages' first byte is as fast.
import { setFlagsFromString } from 'node:v8';

/** The heap may grow to (1 + this/100) times what the last full collection left alive. */
export const HEAP_GROWING_PERCENT = 50;

const FLAG = '--heap-growing-percent';

/**
 * Sets the heap's growing factor for this process, unless the process was
 * started with a factor of its own (`node --heap-growing-percent=N`). V8
 * reads the flag after every full collection, so setting it once the
 * process runs takes effect from the next one.
 */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => arg.startsWith(FLAG) || arg.startsWith('--heap_growing_percent'))) return false;
  setFlagsFromString(`${FLAG}=${HEAP_GROWING_PERCENT}`);
  return true;
}
