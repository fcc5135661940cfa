// The client's CPU per PostgreSQL operation, apart from the server's work and
// the wait for it: every statement is answered by bench/pg-replay.ts (a
// process of its own) with what PostgreSQL answered it before, at once
// ("warm") or CLIENT_CPU_DELAY_MS later (default 2, about a write's time on
// the server: the bench's case, where the client runs cold after each wait).
// Layers side by side: node-postgres alone, the native store, lib/agent-service.
// Run as `node --expose-gc --import tsx bench/client-cpu.ts` (BENCH_POSTGRES_URL:
// the server for a scratch database; CLIENT_CPU_ROUNDS, CLIENT_CPU_OPS).
import { fork, type ChildProcess } from 'node:child_process';
import { getHeapSpaceStatistics } from 'node:v8';
import { createEvent } from '@google/adk';
import type { Sql } from '@prisma/client/runtime/client';
import { StatehouseSessionService } from '../lib/agent-service/statehouse-session-service';
import { postgresPool } from '../lib/db/postgres-pool';
import type { SqlExecutor } from '../lib/db/sql';
import { migrateDatabase } from '../lib/migrate';
import { openServices } from '../lib/services';
import { appendInOneCall } from '../lib/stores/native/pg-writes';
import { splitDelta } from '../lib/session-service/scope';
import { appendEvent, createState } from './data';
import { newEventOf, storedEvent } from './implementations/raw-common';
import { createScratch } from './scratch';

const ROUNDS = Number(process.env.CLIENT_CPU_ROUNDS ?? 6);
const OPS = Number(process.env.CLIENT_CPU_OPS ?? 300);
const DELAY_MS = Number(process.env.CLIENT_CPU_DELAY_MS ?? 2);
const EVENTS = 100;
const APP = 'client-cpu';

type Operation = () => Promise<unknown>;

function proxyMessage(proxy: ChildProcess, key: string): Promise<Record<string, number>> {
  return new Promise((resolve) => {
    const listener = (answer: Record<string, number>) => {
      if (!(key in answer)) return;
      proxy.off('message', listener);
      resolve(answer);
    };
    proxy.on('message', listener);
  });
}

/** The append's statement as the store sends it (to a session that does not exist: the answer is `missing`, every time). */
function appendStatement(sessionId: string): { text: string; values: unknown[] } {
  let captured: Sql | undefined;
  const capture: SqlExecutor = {
    $queryRaw: <T>(query: TemplateStringsArray | Sql) => {
      captured = query as Sql;
      return Promise.resolve([{ outcome: 'ok', new_revision: 1, new_seq: 1 }] as T);
    },
    $executeRaw: () => Promise.resolve(0),
  };
  const stored = storedEvent(appendEvent(0));
  const pending = { stored, data: JSON.stringify(stored), split: splitDelta(stored.actions.stateDelta), spelled: {} };
  void appendInOneCall(capture, { appName: APP, userId: 'u', sessionId }, undefined, pending, 'agent');
  if (!captured) throw new Error('appendInOneCall sent nothing.');
  return { text: captured.text, values: captured.values };
}

/** The layers' operations, on a database URL (through the proxy). */
async function operations(url: string): Promise<{ ops: Record<string, Operation>; close: () => Promise<void> }> {
  const opened = await openServices(url, { migrate: false });
  const service = new StatehouseSessionService({ databaseUrl: url });
  const pool = postgresPool(url);
  // An idle connection the proxy closes (switching to replay) is not this measurement's concern.
  pool.on('error', () => undefined);
  const store = opened.store;
  const ref = { appName: APP, userId: 'u', sessionId: 'appends' };
  const big = { appName: APP, userId: 'u', sessionId: 'read' };
  const session = await service.getSession({ appName: APP, userId: 'u', sessionId: 'agent-appends', config: { numRecentEvents: 0 } });
  if (!session) throw new Error('The fixture session is missing.');
  const { text, values } = appendStatement('no-such-session');
  let n = 0;
  const adkEvent = () => {
    const event = appendEvent(n++);
    return createEvent({
      author: event.author,
      invocationId: event.invocationId,
      content: { role: 'model', parts: [{ text: event.text }] },
      actions: { stateDelta: event.stateDelta },
    });
  };
  const ops: Record<string, Operation> = {
    'pg pool.query, the append statement': () => pool.query({ text, values, rowMode: 'array' }),
    'store create': () => store.createSession({ appName: APP, userId: `u${n % 10}`, sessionId: `s${n++}`, state: createState(n) }),
    'store append': () => store.append(ref, newEventOf(appendEvent(n++))),
    'store get 20': () => store.getSession(big, { numRecentEvents: 20 }),
    'agent-service create': () =>
      service.createSession({ appName: APP, userId: `u${n % 10}`, sessionId: `a${n++}`, state: createState(n) }),
    'agent-service append': async () => {
      await service.appendEvent({ session, event: adkEvent() });
      // The list the caller holds stays short: its length is not what is measured.
      if (session.events.length > 100) session.events.splice(0, 90);
    },
    'agent-service get 20': () => service.getSession({ ...big, config: { numRecentEvents: 20 } }),
  };
  return { ops, close: async () => void (await Promise.all([service.close(), opened.close(), pool.end()])) };
}

function newSpaceUsed(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_used_size ?? 0;
}

/** KB allocated per call, from new space between collections (undefined without --expose-gc, or if a scavenge ran). */
async function allocated(op: Operation): Promise<number | undefined> {
  if (!global.gc) return undefined;
  let least: number | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    global.gc();
    const before = newSpaceUsed();
    for (let i = 0; i < 50; i++) await op();
    const grew = newSpaceUsed() - before;
    if (grew > 0) least = Math.min(least ?? Infinity, grew / 50 / 1024);
  }
  return least;
}

async function measure(label: string, url: string): Promise<void> {
  const { ops, close } = await operations(url);
  const cpu = new Map<string, number[]>();
  const kb = new Map<string, number | undefined>();
  for (const [name, op] of Object.entries(ops)) {
    for (let i = 0; i < 100; i++) await op();
    kb.set(name, await allocated(op));
    cpu.set(name, []);
  }
  // Interleaved rounds: a change in the machine's load falls on every layer alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, op] of Object.entries(ops)) {
      const started = process.cpuUsage();
      for (let i = 0; i < OPS; i++) await op();
      const used = process.cpuUsage(started);
      cpu.get(name)?.push((used.user + used.system) / OPS);
    }
  }
  await close();
  console.log(`\n${label}: CPU of this process per operation (µs, mean and best of ${ROUNDS} rounds of ${OPS}), KB allocated`);
  for (const [name, rounds] of cpu) {
    const mean = rounds.reduce((sum, x) => sum + x, 0) / rounds.length;
    const bytes = kb.get(name);
    console.log(
      `${name.padEnd(38)} ${mean.toFixed(0).padStart(6)} ${Math.min(...rounds)
        .toFixed(0)
        .padStart(6)} ${bytes === undefined ? '' : bytes.toFixed(1).padStart(7)}`,
    );
  }
}

async function main(): Promise<void> {
  const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const scratch = createScratch(`${Date.now().toString(36)}_${process.pid}`, postgresUrl);
  const server = new URL(postgresUrl);
  const proxy = fork(new URL('./pg-replay.ts', import.meta.url).pathname, [`${server.hostname}:${server.port || '5432'}`], {
    execArgv: ['--import', 'tsx'],
  });
  const listening = proxyMessage(proxy, 'listening');
  try {
    const url = await scratch.url('postgresql', 'client_cpu');
    await migrateDatabase(url);
    const direct = await openServices(url, { migrate: false });
    await direct.store.createSession({ appName: APP, userId: 'u', sessionId: 'appends' });
    await direct.store.createSession({ appName: APP, userId: 'u', sessionId: 'agent-appends' });
    await direct.store.createSession({ appName: APP, userId: 'u', sessionId: 'read', state: { topic: 'read' } });
    for (let i = 0; i < EVENTS; i++)
      await direct.store.append({ appName: APP, userId: 'u', sessionId: 'read' }, newEventOf(appendEvent(i)));
    await direct.close();
    const proxied = new URL(url);
    proxied.host = `127.0.0.1:${(await listening).listening}`;
    // Recording: every operation a few times through the server.
    const recording = await operations(proxied.toString());
    for (const op of Object.values(recording.ops)) for (let i = 0; i < 3; i++) await op();
    await recording.close();
    const replaying = proxyMessage(proxy, 'replaying');
    proxy.send({ replay: 0 });
    await replaying;
    await measure('Answered at once (warm)', proxied.toString());
    const delayed = proxyMessage(proxy, 'replaying');
    proxy.send({ replay: DELAY_MS });
    await delayed;
    await measure(`Answered ${DELAY_MS} ms later (cold after each wait, as against the server)`, proxied.toString());
  } finally {
    proxy.kill();
    await scratch.dropAll();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
