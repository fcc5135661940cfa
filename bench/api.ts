// `npm run bench -- --api`: /api from `next start` against the reference
// door (bench/reference-door.ts: plain node:http over the same store code),
// in one run, rounds interleaved between the two doors, at 1 and 16 clients,
// for create, append, get (20 recent of a 20-event session), list (a user's
// 20 sessions) and state (the three tiers). Then, on SQLite, the console's
// pages loaded 1,000 times from the same server: time to first byte and the
// server's RSS after warm-up and at the end.
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { appendEvent, createState, listSessions } from './data';
import { fetchTiming } from './dashboard';
import { DoorTarget } from './implementations/door';
import { openApiDoor, openReferenceDoor, type HttpDoor } from './implementations/statehouse-api';
import type { Group, SessionKey } from './implementations/types';
import type { Options } from './options';
import type { Scratch } from './scratch';
import { processTreeCpuMs } from './server-cpu';
import { percentile } from './stats';
import { buildEventSession } from './workloads';
import { appPath, sessionPath } from '../lib/paths';
import { PROJECT_ROOT } from '../scripts/loadtest/server';

export const API_OPS = ['create', 'append', 'get', 'list', 'state'] as const;
export type ApiOp = (typeof API_OPS)[number];

export interface ApiMeasurement {
  group: Group;
  op: ApiOp;
  clients: number;
  door: 'statehouse-api' | 'statehouse-reference';
  p50Ms: number;
  p95Ms: number;
  /** Each round's p50, in round order. */
  roundsP50Ms: number[];
  /** CPU the server's processes used per request over the rounds (Linux scheduler statistics; load moves it far less than latency). */
  serverCpuMs?: number;
  samples: number;
  error?: string;
}

export interface PageLoads {
  loads: number;
  sessionEvents: number;
  appSessions: number;
  sessionTtfbP50Ms: number;
  appTtfbP50Ms: number;
  /** CPU the server's processes used per load after the warm-up (ms; Linux scheduler statistics). */
  serverCpuMsPerLoad: number;
  /**
   * RSS of the server process (and its children), MiB: after the warm-up
   * loads, then every tenth of the run; with the server process's own split
   * as Node reports it (bench/memory-report.mjs), where it answered.
   */
  rssMiB: ({ afterLoads: number; mib: number } & Partial<MemorySplit>)[];
  growthMiB: number;
}

/** process.memoryUsage() of the server, MiB, and its V8 heap spaces' sizes. */
export interface MemorySplit {
  rssOwnMiB: number;
  heapTotalMiB: number;
  heapUsedMiB: number;
  externalMiB: number;
  arrayBuffersMiB: number;
  spacesMiB: Record<string, number>;
}

export interface ApiResult {
  measurements: ApiMeasurement[];
  pages: PageLoads | null;
  pagesError?: string;
}

const APP = 'bench-api';
const USER = 'api-user';
const GET_KEY: SessionKey = { appName: APP, userId: USER, sessionId: 'api-get' };
const LIST_APP = 'bench-api-list';
const LIST_USER = 'lu0';
const PAGE_APP = 'bench-api-pages';
const PAGE_KEY: SessionKey = { appName: PAGE_APP, userId: 'page-user', sessionId: 'page-big' };
const GET_EVENTS = 20;
const LIST_SESSIONS = 20;

/** Operations per client per round: about the same total work at every client count. */
function opsPerClient(options: Options, clients: number): number {
  const total = options.scale.name === 'small' ? 40 : 160;
  return Math.max(5, Math.round(total / clients));
}

/** A 20-event session (state keys in all three tiers) and a user of 20 sessions. */
async function prepare(door: HttpDoor): Promise<void> {
  await buildEventSession(new DoorTarget(door), GET_KEY, GET_EVENTS);
  await door.seedSessions(LIST_APP, listSessions(1, LIST_SESSIONS));
}

/** One round of `op` with `clients` clients at once; latencies in ms. */
async function round(door: HttpDoor, op: ApiOp, clients: number, perClient: number, roundNo: number): Promise<number[]> {
  const latencies: number[] = [];
  const revisions = new Map<number, number | undefined>();
  const appendKey = (c: number): SessionKey => ({ appName: APP, userId: USER, sessionId: `api-append-${clients}-${roundNo}-${c}` });
  if (op === 'append') {
    for (let c = 0; c < clients; c++) revisions.set(c, await door.create(appendKey(c), { topic: 'append' }));
  }
  const one = async (c: number, i: number): Promise<void> => {
    switch (op) {
      case 'create':
        await door.create({ appName: APP, userId: `cu${c}`, sessionId: `c-${clients}-${roundNo}-${c}-${i}` }, createState(i));
        return;
      case 'append':
        revisions.set(c, await door.append(appendKey(c), revisions.get(c), appendEvent(i)));
        return;
      case 'get': {
        const got = await door.get(GET_KEY, GET_EVENTS);
        if (got?.eventCount !== GET_EVENTS) throw new Error(`get: expected ${GET_EVENTS} events, got ${got?.eventCount}`);
        return;
      }
      case 'list': {
        const n = await door.list(LIST_APP, LIST_USER);
        if (n !== LIST_SESSIONS) throw new Error(`list: expected ${LIST_SESSIONS} sessions, got ${n}`);
        return;
      }
      case 'state':
        if ((await door.state(GET_KEY)) === 0) throw new Error('state: no keys');
        return;
    }
  };
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; i < perClient; i++) {
        const t = performance.now();
        await one(c, i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return latencies;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

/** Resident set of a process and its descendants, MiB (Linux /proc). */
function rssMiB(pid: number): number {
  const kib = (p: number): number => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const own = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const children = readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      return own + children.reduce((sum, child) => sum + kib(child), 0);
    } catch {
      return 0;
    }
  };
  return kib(pid) / 1024;
}

const MIB = 1024 * 1024;

/** The server's memory as bench/memory-report.mjs writes it on SIGUSR2; undefined when it does not answer within a second. */
async function memorySplit(pid: number, file: string): Promise<MemorySplit | undefined> {
  type Report = {
    seq: number;
    rss: number;
    heapTotal: number;
    heapUsed: number;
    external: number;
    arrayBuffers: number;
    spaces: Record<string, number>;
  };
  const read = (): Report | undefined => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Report;
    } catch {
      return undefined;
    }
  };
  const before = read()?.seq ?? 0;
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 50; i++) {
    await sleep(20);
    const report = read();
    if (report && report.seq > before) {
      return {
        rssOwnMiB: report.rss / MIB,
        heapTotalMiB: report.heapTotal / MIB,
        heapUsedMiB: report.heapUsed / MIB,
        externalMiB: report.external / MIB,
        arrayBuffersMiB: report.arrayBuffers / MIB,
        spacesMiB: Object.fromEntries(Object.entries(report.spaces).map(([name, bytes]) => [name, bytes / MIB])),
      };
    }
  }
  return undefined;
}

/** The session page and the app page, alternately, `loads` times in all; the first tenth warms up. */
async function pageLoads(door: HttpDoor, options: Options, memoryFile: string, log: (message: string) => void): Promise<PageLoads> {
  const pid = door.pid;
  if (pid === undefined) throw new Error('no server process to measure');
  const sessionEvents = options.scale.bigEvents;
  const appSessions = options.scale.listAppSessions;
  log(`api pages: fixtures (a ${sessionEvents}-event session, an app of ${appSessions} sessions)`);
  await buildEventSession(new DoorTarget(door), PAGE_KEY, sessionEvents);
  await door.seedSessions(PAGE_APP, listSessions(Math.ceil(appSessions / 100), 100).slice(0, appSessions));
  const loads = options.scale.pageLoads;
  const warmup = Math.max(1, Math.round(loads / 10));
  const session = new URL(sessionPath(PAGE_KEY.appName, PAGE_KEY.userId, PAGE_KEY.sessionId), door.baseUrl).toString();
  const app = new URL(appPath(PAGE_APP), door.baseUrl).toString();
  const ttfb = { session: [] as number[], app: [] as number[] };
  const rss: PageLoads['rssMiB'] = [];
  log(`api pages: ${loads} loads`);
  let cpuAfterWarmup = 0;
  for (let i = 0; i < loads; i++) {
    if (i === warmup) cpuAfterWarmup = processTreeCpuMs(pid);
    const kind = i % 2 === 0 ? 'session' : 'app';
    const timing = await fetchTiming(kind === 'session' ? session : app);
    if (timing.status !== 200) throw new Error(`${kind} page: ${timing.status}`);
    if (i >= warmup) ttfb[kind].push(timing.ttfbMs);
    if (i + 1 === warmup || (i + 1) % Math.max(1, Math.round(loads / 10)) === 0) {
      rss.push({ afterLoads: i + 1, mib: rssMiB(pid), ...(await memorySplit(pid, memoryFile)) });
    }
  }
  const serverCpuMsPerLoad = (processTreeCpuMs(pid) - cpuAfterWarmup) / Math.max(1, loads - warmup);
  const first = rss[0]?.mib ?? Number.NaN;
  const last = rss.at(-1)?.mib ?? Number.NaN;
  return {
    loads,
    sessionEvents,
    appSessions,
    sessionTtfbP50Ms: percentile(ttfb.session, 50),
    appTtfbP50Ms: percentile(ttfb.app, 50),
    serverCpuMsPerLoad,
    rssMiB: rss,
    growthMiB: last - first,
  };
}

/** The comparison on one database; page loads on SQLite only (the console's default). */
export async function runApi(
  group: Group,
  options: Options,
  scratch: Scratch,
  result: ApiResult,
  log: (message: string) => void,
): Promise<void> {
  const clientCounts = options.apiClients;
  log(`${group}: api: starting next start and the reference door`);
  const memoryFile = join(tmpdir(), `statehouse-bench-memory-${process.pid}.json`);
  const api = await openApiDoor(group, await scratch.url(group, 'statehouse-api'), {
    distDir: options.distDir,
    port: options.apiPort,
    nodeArgs: [...options.apiNodeArgs, '--import', pathToFileURL(join(PROJECT_ROOT, 'bench/memory-report.mjs')).href],
    env: { BENCH_MEMORY_REPORT: memoryFile },
    log,
  });
  const doors: HttpDoor[] = [api];
  try {
    doors.push(
      await openReferenceDoor(
        group,
        await scratch.url(group, 'statehouse-reference'),
        process.env.BENCH_REF_NODE_ARGS?.split(' ').filter(Boolean),
        options.refPort,
      ),
    );
    for (const door of doors) await prepare(door);
    const ops = options.workloads ? API_OPS.filter((op) => options.workloads?.includes(op)) : API_OPS;
    for (const op of ops) {
      for (const clients of clientCounts) {
        log(`${group}: api: ${op}, ${clients} client${clients === 1 ? '' : 's'}`);
        const perClient = opsPerClient(options, clients);
        const rounds = new Map<HttpDoor, number[][]>(doors.map((d) => [d, []]));
        const cpuMs = new Map<HttpDoor, number>(doors.map((d) => [d, 0]));
        const failed = new Map<HttpDoor, string>();
        // Warm-up, then rounds in an order rotated by the round number.
        const warmup = options.apiWarmup > 0 ? Math.ceil(options.apiWarmup / clients) : Math.min(perClient, 3);
        for (const door of doors) await round(door, op, clients, warmup, -1).catch((e: unknown) => failed.set(door, messageOf(e)));
        for (let r = 0; r < options.scale.rounds; r++) {
          for (const door of r % 2 === 0 ? doors : [...doors].reverse()) {
            if (failed.has(door)) continue;
            try {
              const cpuBefore = door.pid === undefined ? 0 : processTreeCpuMs(door.pid);
              rounds.get(door)?.push(await round(door, op, clients, perClient, r));
              if (door.pid !== undefined) cpuMs.set(door, (cpuMs.get(door) ?? 0) + processTreeCpuMs(door.pid) - cpuBefore);
            } catch (error) {
              failed.set(door, messageOf(error));
            }
          }
        }
        for (const door of doors) {
          const all = (rounds.get(door) ?? []).flat();
          result.measurements.push({
            group,
            op,
            clients,
            door: door.impl === 'statehouse-api' ? 'statehouse-api' : 'statehouse-reference',
            p50Ms: percentile(all, 50),
            p95Ms: percentile(all, 95),
            roundsP50Ms: (rounds.get(door) ?? []).map((l) => percentile(l, 50)),
            samples: all.length,
            ...(all.length && cpuMs.get(door) ? { serverCpuMs: (cpuMs.get(door) ?? 0) / all.length } : {}),
            ...(failed.has(door) ? { error: failed.get(door) } : {}),
          });
        }
      }
    }
    if (group === 'sqlite' && options.scale.pageLoads > 0) {
      try {
        result.pages = await pageLoads(api, options, memoryFile, log);
      } catch (error) {
        result.pagesError = messageOf(error);
      }
    }
  } finally {
    for (const door of doors) await door.close().catch(() => undefined);
    rmSync(memoryFile, { force: true });
  }
}
