// What the slow creates on SQLite are (issue 25: create p99 13.6x the floor's).
// Creates `n` sessions through the domain store on a fresh SQLite file, timing
// each, and marks the ones that overlapped a garbage collection (Node's gc
// performance entries); --no-autocheckpoint turns SQLite's WAL checkpoints
// (every 1,000 pages, run by the commit that crosses the mark) off, so the
// two runs side by side show what the checkpoints cost. Run with
// `node --import tsx bench/create-spikes.ts [n] [--no-autocheckpoint]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { raw } from '@prisma/client/runtime/client';
import { createState } from './data';
import { openStatehouseTarget } from './implementations/statehouse';
import { percentile } from './stats';

interface Sample {
  ms: number;
  /** CPU time of this process over the create: a slow create with little CPU waited (for a core, or the disk). */
  cpuMs: number;
  systemMs: number;
  gc: boolean;
}

async function main(): Promise<void> {
  const n = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 3000);
  const noCheckpoint = process.argv.includes('--no-autocheckpoint');
  const dir = mkdtempSync(join(tmpdir(), 'statehouse-spikes-'));
  const url = `file:${join(dir, 'spikes.db')}`;
  const target = await openStatehouseTarget(url);
  const gcs: { start: number; end: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcs.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    if (noCheckpoint) {
      const { openDatabase } = await import('../lib/db');
      const db = await openDatabase(url);
      await db.client.$executeRaw(raw('PRAGMA wal_autocheckpoint = 0'));
      await db.close();
    }
    const samples: Sample[] = [];
    for (let i = 0; i < n; i++) {
      const key = { appName: 'spikes', userId: `u${i % 10}`, sessionId: `s${i}` };
      const cpu = process.cpuUsage();
      const start = performance.now();
      await target.create(key, createState(i));
      const end = performance.now();
      const used = process.cpuUsage(cpu);
      target.forget(key);
      // GC entries arrive asynchronously: matched by time after the run.
      samples.push({ ms: end - start, cpuMs: (used.user + used.system) / 1000, systemMs: used.system / 1000, gc: false });
      Object.assign(samples[samples.length - 1] ?? {}, { start, end });
    }
    await new Promise((done) => setTimeout(done, 50));
    for (const sample of samples as (Sample & { start: number; end: number })[]) {
      sample.gc = gcs.some((g) => g.end >= sample.start && g.start <= sample.end);
    }
    const all = samples.map((s) => s.ms);
    const p50Of = (list: Sample[], field: 'ms' | 'cpuMs' | 'systemMs') =>
      percentile(
        list.map((s) => s[field]),
        50,
      ).toFixed(2);
    const slow = samples.filter((s) => s.ms >= percentile(all, 99));
    const gc = samples.filter((s) => s.gc);
    const mode = noCheckpoint ? 'no WAL autocheckpoint' : 'WAL autocheckpoint every 1000 pages';
    console.log(`${n} creates (${mode}): p50 ${p50Of(samples, 'ms')} ms, CPU p50 ${p50Of(samples, 'cpuMs')} ms`);
    console.log(
      `  p99 ${percentile(all, 99).toFixed(2)} ms, p99.9 ${percentile(all, 99.9).toFixed(2)} ms, max ${Math.max(...all).toFixed(2)} ms`,
    );
    console.log(
      `  at or above p99 (${slow.length}): wall p50 ${p50Of(slow, 'ms')} ms, CPU p50 ${p50Of(slow, 'cpuMs')} ms ` +
        `(system ${p50Of(slow, 'systemMs')} ms); ${slow.filter((s) => s.gc).length} overlapped a GC`,
    );
    console.log(`  creates that overlapped a GC: ${gc.length}, wall p50 ${gc.length ? p50Of(gc, 'ms') : '-'} ms`);
  } finally {
    observer.disconnect();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
