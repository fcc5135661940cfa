// Where a door's CPU per request goes, outside the request's own code: both
// HTTP doors of `npm run bench -- --api` (next start's /api and the
// reference door, each in a process of its own, SQLite) side by side, and
// for each: its CPU while idle, its CPU per request in consecutive batches
// (so the warm-up shows), split into the main thread and the other threads
// (the collector's and the compiler's helpers), and its garbage collections
// per 1,000 requests. It prints both doors' answers' sizes and headers too.
// Run from the project root, after a build:
//   NEXT_DIST_DIR=.next-bench node --import tsx bench/door-cpu.ts \
//     [--ops idle,list:1,get:16] [--batches 6] [--batch 500] [--warm 200] [--api-port 3206] [--ref-port 0]
// BENCH_NODE_ARGS and BENCH_REF_NODE_ARGS pass Node flags to the doors
// (e.g. --heap-growing-percent=0 for V8's own heap growth).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { listSessions } from './data';
import { DoorTarget } from './implementations/door';
import { openApiDoor, openReferenceDoor, type HttpDoor } from './implementations/statehouse-api';
import type { SessionKey } from './implementations/types';
import { processTreeCpuMs } from './server-cpu';
import { buildEventSession } from './workloads';
import { PROJECT_ROOT } from '../scripts/loadtest/server';

const { values } = parseArgs({
  options: {
    ops: { type: 'string', default: 'idle,list:1,get:16' },
    batches: { type: 'string', default: '6' },
    batch: { type: 'string', default: '500' },
    warm: { type: 'string', default: '200' },
    'api-port': { type: 'string', default: process.env.BENCH_API_PORT ?? '3206' },
    'ref-port': { type: 'string', default: process.env.BENCH_REF_PORT ?? '0' },
  },
});

const GET_KEY: SessionKey = { appName: 'bench-api', userId: 'api-user', sessionId: 'api-get' };
const LIST_APP = 'bench-api-list';
const READS = {
  list: (door: HttpDoor) => door.list(LIST_APP, 'lu0'),
  get: (door: HttpDoor) => door.get(GET_KEY, 20),
} as const;

type GcCounts = Record<'minor' | 'major' | 'other' | 'minorMs' | 'majorMs' | 'otherMs' | 'heapUsedMiB' | 'heapTotalMiB', number>;

const dir = mkdtempSync(join(tmpdir(), 'statehouse-door-cpu-'));
const gcReport = join(dir, 'gc');
process.env.BENCH_GC_REPORT = gcReport;
const gcImport = ['--import', pathToFileURL(join(PROJECT_ROOT, 'bench/gc-report.mjs')).href];
const nodeArgs = (name: string) => (process.env[name] ?? '').split(' ').filter(Boolean);

/** The door's collections so far (bench/gc-report.mjs, on SIGUSR2). */
async function gcCounts(pid: number): Promise<GcCounts | undefined> {
  const file = `${gcReport}.${pid}`;
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 50; i++) {
    await sleep(20);
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as GcCounts;
    } catch {
      // Not written yet.
    }
  }
  return undefined;
}

/** CPU ns of each thread of the process: the main thread (tid = pid) and the rest. */
function threadsNs(pid: number): { main: number; others: number } {
  let main = 0;
  let others = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0] ?? 0);
      if (Number(tid) === pid) main += ns;
      else others += ns;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return { main, others };
}

async function showAnswers(name: string, door: HttpDoor): Promise<void> {
  const paths = [
    `/api/apps/${LIST_APP}/users/lu0/sessions`,
    `/api/apps/${GET_KEY.appName}/users/${GET_KEY.userId}/sessions/${GET_KEY.sessionId}?numRecentEvents=20`,
  ];
  for (const path of paths) {
    const response = await fetch(door.baseUrl + path);
    const body = await response.text();
    const headers = [...response.headers].filter(([header]) => header !== 'date').map(([header, value]) => `${header}: ${value}`);
    console.log(`${name} GET ${path}: ${response.status}, ${body.length} bytes; ${headers.join('; ')}`);
  }
}

async function measure(name: string, door: HttpDoor, spec: string): Promise<void> {
  const pid = door.pid as number;
  if (spec === 'idle') {
    const before = processTreeCpuMs(pid);
    await sleep(10_000);
    console.log(`${name} idle: ${(processTreeCpuMs(pid) - before).toFixed(1)} ms of CPU in 10 s`);
    return;
  }
  const [op, count] = spec.split(':');
  const read = READS[op as keyof typeof READS];
  if (!read) throw new Error(`unknown op ${spec}: list:N or get:N`);
  const clients = Math.max(1, Number(count ?? 1));
  const perClient = Math.ceil(Number(values.batch) / clients);
  const requests = perClient * clients;
  for (let i = 0; i < Number(values.warm); i++) await read(door);
  for (let b = 0; b < Number(values.batches); b++) {
    const gc0 = await gcCounts(pid);
    const threads0 = threadsNs(pid);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = 0; i < perClient; i++) await read(door);
      }),
    );
    const wall = performance.now() - started;
    const threads1 = threadsNs(pid);
    const gc1 = await gcCounts(pid);
    const us = (ns: number) => (ns / 1000 / requests).toFixed(0);
    const perK = (key: keyof GcCounts) => (gc0 && gc1 ? (((gc1[key] - gc0[key]) * 1000) / requests).toFixed(1) : '?');
    const pauseUs = (key: keyof GcCounts) => (gc0 && gc1 ? (((gc1[key] - gc0[key]) * 1000) / requests).toFixed(1) : '?');
    console.log(
      `${name} ${spec} batch ${b}: CPU/request ${us(threads1.main - threads0.main + threads1.others - threads0.others)} µs ` +
        `(main ${us(threads1.main - threads0.main)}, other threads ${us(threads1.others - threads0.others)}), wall ${((wall * 1000) / requests).toFixed(0)} µs; ` +
        `per 1,000 requests: ${perK('minor')} minor GCs, ${perK('major')} major; pauses ${pauseUs('minorMs')} + ${pauseUs('majorMs')} µs/request; ` +
        `heap ${gc1?.heapUsedMiB.toFixed(0)}/${gc1?.heapTotalMiB.toFixed(0)} MiB`,
    );
  }
}

async function main(): Promise<void> {
  const api = await openApiDoor('sqlite', `file:${join(dir, 'api.db')}`, {
    distDir: process.env.NEXT_DIST_DIR || '.next-bench',
    port: Number(values['api-port']),
    nodeArgs: [...nodeArgs('BENCH_NODE_ARGS'), ...gcImport],
    log: (message) => console.log(message),
  });
  const doors: [string, HttpDoor][] = [['api', api]];
  try {
    doors.push([
      'ref',
      await openReferenceDoor(
        'sqlite',
        `file:${join(dir, 'ref.db')}`,
        [...nodeArgs('BENCH_REF_NODE_ARGS'), ...gcImport],
        Number(values['ref-port']),
      ),
    ]);
    for (const [name, door] of doors) {
      await buildEventSession(new DoorTarget(door), GET_KEY, 20);
      await door.seedSessions(LIST_APP, listSessions(1, 20));
      await showAnswers(name, door);
    }
    for (const spec of values.ops.split(',')) for (const [name, door] of doors) await measure(name, door, spec);
  } finally {
    for (const [, door] of doors) await door.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
