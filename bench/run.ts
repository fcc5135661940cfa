// `npm run bench`: the same workloads against Statehouse, the raw-driver
// floor and adk-js's two session services, in one process, rounds
// interleaved (round r runs every implementation once, in an order rotated
// by r, so drift in the machine's load hits all of them alike), on SQLite
// and on PostgreSQL. Prints a table of medians and writes JSON to --out.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { runApi } from './api';
import { measureDashboard, seedDashboard } from './dashboard';
import { DASHBOARD_DATABASE_URL, startDashboard } from './dashboard-server';
import { openTarget } from './implementations';
import type { BenchTarget } from './implementations/types';
import { probeMemory } from './memory';
import { parseOptions, type Options } from './options';
import { queryOverhead, statementProfile } from './profile';
import { formatReport } from './report';
import type { Group, Measurement, MemoryResult, RunResult } from './results';
import { postgresReachable } from '../lib/testing/postgres-reachable';
import { createScratch, type Scratch } from './scratch';
import { median, percentile } from './stats';
import { formatTimeTravel, runTimeTravel } from './time-travel';
import { formatLongReads, runLongReads } from './long-reads';
import { formatLargeValues, runLargeValues } from './large-values';
import { formatCoexistence, runCoexistenceBench } from './coexistence';
import { formatSearch, runSearchBench, SEARCH_SCALE, SMALL_SEARCH_SCALE } from './search';
import { Fixtures, workloadsFor, type RoundResult, type Workload } from './workloads';

interface Entry {
  target: BenchTarget;
  url: string;
  fixtures: Fixtures;
}

/** Events of the session --time-travel travels in (the size that took 6-20 s before). */
const TIME_TRAVEL_EVENTS = 100_000;

const gc = (globalThis as { gc?: () => void }).gc;

function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** The commit measured, with a + when the work tree has changes. */
function currentCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit}+` : commit;
  } catch {
    return 'unknown';
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

function selectWorkloads(all: Workload[], names: string[] | null): Workload[] {
  if (!names) return all;
  return all.filter((w) => names.some((n) => w.name === n || w.name.startsWith(`${n}-`)));
}

function rotate<T>(items: T[], by: number): T[] {
  const k = items.length ? by % items.length : 0;
  return [...items.slice(k), ...items.slice(0, k)];
}

function summarise(group: Group, entry: Entry, workload: Workload, rounds: RoundResult[]): Measurement {
  const perRound = rounds.map((r) => r.totalMs / r.ops);
  const measurement: Measurement = {
    group,
    impl: entry.target.impl,
    workload: workload.name,
    title: workload.title,
    msPerOp: median(perRound),
    roundsMsPerOp: perRound,
    cpuMsPerOp: median(rounds.map((r) => r.cpuMs / r.ops)),
    p95Ms: percentile(
      rounds.flatMap((r) => r.latencies),
      95,
    ),
    opsPerRound: rounds[0]?.ops ?? 0,
  };
  const growth = rounds.flatMap((r) => (r.growth === undefined ? [] : [r.growth]));
  if (growth.length) measurement.growth = median(growth);
  if (rounds.some((r) => r.lost !== undefined)) {
    measurement.lost = rounds.reduce((sum, r) => sum + (r.lost ?? 0), 0);
    measurement.failed = rounds.reduce((sum, r) => sum + (r.failed ?? 0), 0);
    measurement.failures = [...new Set(rounds.flatMap((r) => r.failures ?? []))].slice(0, 3);
  }
  return measurement;
}

async function runWorkload(group: Group, entries: Entry[], workload: Workload, options: Options): Promise<Measurement[]> {
  const { scale } = options;
  const failed = new Map<Entry, string>();
  const active = entries.filter((e) => workload.applies?.(e.target) ?? true);
  for (const entry of active) {
    try {
      await workload.setup(entry.target, scale, entry.fixtures);
      await workload.warmup(entry.target, scale);
    } catch (error) {
      failed.set(entry, messageOf(error));
    }
  }
  const rounds = new Map<Entry, RoundResult[]>(active.map((e) => [e, []]));
  for (let r = 0; r < (workload.rounds ?? scale.rounds); r++) {
    for (const entry of rotate(active, r)) {
      if (failed.has(entry)) continue;
      gc?.();
      try {
        rounds.get(entry)?.push(await workload.round(entry.target, scale, r));
      } catch (error) {
        failed.set(entry, messageOf(error));
      }
    }
  }
  return active.map((entry) => {
    const error = failed.get(entry);
    if (error !== undefined) {
      return {
        group,
        impl: entry.target.impl,
        workload: workload.name,
        title: workload.title,
        msPerOp: Number.NaN,
        roundsMsPerOp: [],
        cpuMsPerOp: Number.NaN,
        p95Ms: Number.NaN,
        opsPerRound: 0,
        error,
      };
    }
    return summarise(group, entry, workload, rounds.get(entry) ?? []);
  });
}

async function runGroup(group: Group, options: Options, scratch: Scratch, result: RunResult): Promise<void> {
  const entries: Entry[] = [];
  for (const impl of options.impls) {
    const url = impl === 'adk-memory' ? '' : await scratch.url(group, impl);
    log(`${group}: opening ${impl}`);
    const target = await openTarget(impl, impl === 'adk-memory' ? 'memory' : group, url, {
      statehouseLib: options.statehouseLib,
      api: { distDir: options.distDir, port: options.apiPort, log },
    });
    entries.push({ target, url, fixtures: new Fixtures() });
  }
  try {
    for (const workload of selectWorkloads(workloadsFor(options.scale), options.workloads)) {
      log(`${group}: ${workload.name}`);
      result.measurements.push(...(await runWorkload(group, entries, workload, options)));
    }
    if (options.profile) {
      log(`${group}: statement profile and fixed query costs`);
      for (const entry of entries) result.profiles.push(...(await statementProfile(entry.target, group)));
      const statehouse = entries.find((e) => e.target.impl === 'statehouse');
      if (statehouse) result.overheads.push(await queryOverhead(group, statehouse.url));
    }
    if (options.memory) {
      for (const entry of entries) {
        if (entry.target.impl === 'adk-memory' && group !== result.groups[0]) continue;
        if (entry.target.impl === 'statehouse-api') continue; // a server process of its own
        log(`${group}: peak memory of ${entry.target.impl}`);
        try {
          const probe = await probeMemory({
            impl: entry.target.impl,
            provider: entry.target.provider,
            url: entry.url,
            scale: options.scale,
            fixtures: entry.fixtures.built,
            statehouseLib: options.statehouseLib,
          });
          result.memory.push({ group, impl: entry.target.impl, ...probe } satisfies MemoryResult);
        } catch (error) {
          result.memoryErrors.push(`${group} ${entry.target.impl}: ${messageOf(error)}`);
        }
      }
    }
  } finally {
    for (const entry of entries) await entry.target.close().catch(() => undefined);
  }
}

async function runDashboard(options: Options, result: RunResult): Promise<void> {
  if (options.dashboardUrl && options.dashboardDatabaseUrl) {
    log(`dashboard: fixtures in ${options.dashboardDatabaseUrl}`);
    const seeded = await seedDashboard(options.dashboardDatabaseUrl, options.scale, false);
    log(`dashboard: timing ${options.dashboardUrl}`);
    result.dashboard = await measureDashboard(options.dashboardUrl, options.dashboardDatabaseUrl, seeded);
    return;
  }
  log(`dashboard: fixtures in ${DASHBOARD_DATABASE_URL}`);
  const seeded = await seedDashboard(DASHBOARD_DATABASE_URL, options.scale, true);
  const server = await startDashboard(options, log);
  try {
    result.dashboard = await measureDashboard(server.url, server.databaseUrl, seeded);
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const runId = `${Date.now().toString(36)}_${process.pid}`;
  const cpu = cpus();
  const result: RunResult = {
    startedAt: new Date().toISOString(),
    commit: currentCommit(),
    durationS: 0,
    machine: {
      cpus: cpu.length,
      cpuModel: cpu[0]?.model.trim() ?? 'unknown',
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.versions.node,
      platform: `${process.platform} ${process.arch}`,
      loadAverage: loadavg(),
    },
    scale: options.scale,
    pgSynchronousCommit: options.pgSynchronousCommit,
    groups: [],
    measurements: [],
    profiles: [],
    overheads: [],
    memory: [],
    memoryErrors: [],
    dashboard: null,
  };
  if (!gc) log('run with node --expose-gc (npm run bench does) so that rounds start from a collected heap');

  const groups = options.dashboardOnly ? [] : [...options.providers];
  if (groups.includes('postgresql') && !(await postgresReachable(options.postgresUrl))) {
    throw new Error(`PostgreSQL is not reachable at ${options.postgresUrl}; start it or pass --provider sqlite.`);
  }
  result.groups = groups;
  const scratch = createScratch(runId, options.postgresUrl, options.pgSynchronousCommit);
  const stop = () => {
    void scratch.dropAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  try {
    if (options.coexistence) {
      result.coexistence = await runCoexistenceBench(groups, scratch, log);
      console.log(formatCoexistence(result.coexistence));
    } else if (options.largeValues) {
      result.largeValues = await runLargeValues(options.scale.rounds, log);
      console.log(formatLargeValues(result.largeValues));
    } else if (options.search) {
      const scale = options.scale.name === 'small' ? SMALL_SEARCH_SCALE : SEARCH_SCALE;
      result.search = await runSearchBench(groups, scratch, log, scale, options.searchStores);
      console.log(formatSearch(result.search));
    } else if (options.longReads) {
      result.longReads = await runLongReads(TIME_TRAVEL_EVENTS, log);
      console.log(formatLongReads(result.longReads));
    } else if (options.timeTravel) {
      result.timeTravel = await runTimeTravel(TIME_TRAVEL_EVENTS, options.scale.rounds, log);
      console.log(formatTimeTravel(result.timeTravel));
    } else if (options.api) {
      result.api = { measurements: [], pages: null };
      for (const group of groups) await runApi(group, options, scratch, result.api, log);
    } else {
      for (const group of groups) await runGroup(group, options, scratch, result);
    }
    if (options.dashboard) {
      try {
        await runDashboard(options, result);
      } catch (error) {
        result.dashboardError = messageOf(error);
      }
    }
  } finally {
    await scratch.dropAll();
  }
  result.durationS = (performance.now() - started) / 1000;
  result.machine.loadAverageAtEnd = loadavg();

  mkdirSync(options.outDir, { recursive: true });
  const json = JSON.stringify(result, null, 2);
  const file = join(options.outDir, `bench-${result.startedAt.replace(/[:.]/g, '-')}-${options.scale.name}.json`);
  writeFileSync(file, json);
  writeFileSync(join(options.outDir, 'latest.json'), json);
  console.log(formatReport(result));
  log(`wrote ${file}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
