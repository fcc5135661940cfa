// Child process: peak memory of ONE implementation, alone in its process.
// Opens the target on the database the main run filled (adk-memory builds its
// fixtures here: holding them IS its footprint), then runs the heavy
// operations: full get of the big session, list of the app and of a user,
// recent gets and a burst of appends. Prints one JSON line.
import { appendEvent } from './data';
import { openTarget } from './implementations';
import type { ImplName, ProviderName } from './implementations/types';
import type { Scale } from './options';
import { BIG_KEY, buildEventSession, buildListApp, LIST_APP, LIST_USER } from './workloads';

export interface ProbeSpec {
  impl: ImplName;
  provider: ProviderName;
  url: string;
  scale: Scale;
  /** Fixtures already in the database. */
  fixtures: string[];
  statehouseLib?: string;
}

export interface ProbeResult {
  baselineRssMb: number;
  baselineHeapMb: number;
  peakRssMb: number;
  peakHeapMb: number;
}

const MB = 1024 * 1024;

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as ProbeSpec;
  const gc = (globalThis as { gc?: () => void }).gc;
  const target = await openTarget(spec.impl, spec.provider, spec.url, { migrate: false, statehouseLib: spec.statehouseLib });
  gc?.();
  const baseline = process.memoryUsage();
  let peakHeap = baseline.heapUsed;
  const sample = () => {
    const heap = process.memoryUsage().heapUsed;
    if (heap > peakHeap) peakHeap = heap;
  };
  const timer = setInterval(sample, 5);

  if (!spec.fixtures.includes('big')) await buildEventSession(target, BIG_KEY, spec.scale.bigEvents);
  if (!spec.fixtures.includes('list')) await buildListApp(target, spec.scale);
  sample();
  for (let i = 0; i < 2; i++) {
    await target.get(BIG_KEY);
    sample();
    await target.list(LIST_APP);
    sample();
    await target.list(LIST_APP, LIST_USER);
    sample();
  }
  for (let i = 0; i < 50; i++) await target.get(BIG_KEY, spec.scale.recentEvents);
  const key = { appName: 'bench-memory', userId: 'mu', sessionId: `m-${process.pid}` };
  await target.create(key, { topic: 'memory' });
  for (let i = 0; i < spec.scale.memoryAppends; i++) {
    await target.append(key, appendEvent(i));
    if (i % 20 === 0) sample();
  }
  sample();
  clearInterval(timer);
  await target.close();
  const result: ProbeResult = {
    baselineRssMb: baseline.rss / MB,
    baselineHeapMb: baseline.heapUsed / MB,
    // The kernel's high-water mark for the whole process (KiB).
    peakRssMb: (process.resourceUsage().maxRSS * 1024) / MB,
    peakHeapMb: peakHeap / MB,
  };
  console.log(JSON.stringify(result));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
