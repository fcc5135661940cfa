// PostgreSQL that stops answering without going away: behind a TCP proxy
// this test stalls (bytes held, sockets left open: a frozen network, a
// half-open connection) and cuts. Every request ends within the time limits
// as a 503 with Retry-After (never a hang, never a 500), the connections that
// stalled are dropped, and the same service recovers within seconds.
import net from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '@/lib/db';
import { setServicesForTests } from '@/lib/services';
import { createNativeSessionStore } from '@/lib/stores/native';
import { createTestDatabase, queryPostgres, testProviders, type TestDatabase } from '@/lib/testing/databases';
import { call, type CallResult } from '@/lib/testing/http';
import * as session from './apps/[app]/users/[user]/sessions/[id]/route';
import * as events from './apps/[app]/users/[user]/sessions/[id]/events/route';
import * as sessions from './apps/[app]/users/[user]/sessions/route';

const providers = await testProviders();
const target = { app: 'stall', user: 'u', id: 's' };
const TIMEOUTS = { connectMs: 1_000, statementMs: 1_000, queryMs: 1_500, idleMs: 10_000 };

/** A TCP proxy that can hold every byte in both directions (and release them later), or reset every connection. */
class StallingProxy {
  private server: net.Server | undefined;
  private readonly pairs = new Set<{ flush(): void; destroy(): void }>();
  private stalled = false;
  port = 0;

  constructor(private readonly upstream: { host: string; port: number }) {}

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.upstream.port, this.upstream.host);
      const held: [net.Socket, Buffer][] = [];
      const forward = (to: net.Socket) => (chunk: Buffer) => {
        if (this.stalled) held.push([to, chunk]);
        else to.write(chunk);
      };
      client.on('data', forward(upstream));
      upstream.on('data', forward(client));
      const pair = {
        flush: () => {
          for (const [to, chunk] of held.splice(0)) if (!to.destroyed) to.write(chunk);
        },
        destroy: () => {
          client.resetAndDestroy();
          upstream.resetAndDestroy();
        },
      };
      this.pairs.add(pair);
      for (const socket of [client, upstream]) {
        socket.on('error', () => pair.destroy());
        socket.on('close', () => {
          pair.destroy();
          this.pairs.delete(pair);
        });
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  stall(): void {
    this.stalled = true;
  }

  /** Lets the held bytes through, late: answers to queries the client gave up on arrive now. */
  resume(): void {
    this.stalled = false;
    for (const pair of this.pairs) pair.flush();
  }

  cut(): void {
    for (const pair of this.pairs) pair.destroy();
  }

  async close(): Promise<void> {
    this.resume();
    this.cut();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

function withPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.host = `127.0.0.1:${port}`;
  return parsed.toString();
}

const read = () => call(session.GET, 'GET', { params: target });
const append = (n: number) => call(events.POST, 'POST', { params: target, body: { author: 'agent', actions: { stateDelta: { n } } } });

function expectUnavailable(result: CallResult): void {
  expect(result.status, result.text).toBe(503);
  expect(result.headers.get('retry-after')).toBe('2');
  expect(result.json).toEqual({ detail: expect.stringMatching(/^Database unavailable: /) });
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

/** Polls until a read succeeds; how long that took. */
async function recoveryMs(limitMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const result = await read();
    if (result.status === 200) return performance.now() - started;
    expect(result.status, result.text).toBe(503);
    if (performance.now() - started > limitMs) throw new Error(`Still ${result.status} after ${limitMs} ms: ${result.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe.skipIf(!providers.includes('postgresql'))('PostgreSQL stalling', () => {
  let database: TestDatabase;
  let proxy: StallingProxy;
  let viaProxy: Database;

  beforeAll(async () => {
    database = await createTestDatabase('postgresql');
    const server = new URL(database.url);
    proxy = new StallingProxy({ host: server.hostname, port: Number(server.port || 5432) });
    await proxy.start();
    viaProxy = await openDatabase(withPort(database.url, proxy.port), { postgres: TIMEOUTS });
    setServicesForTests({ store: createNativeSessionStore(viaProxy.client, viaProxy.provider) });
    expect((await call(sessions.POST, 'POST', { params: target, body: { sessionId: 's' } })).status).toBe(200);
  });
  afterAll(async () => {
    setServicesForTests({});
    await proxy?.close();
    await viaProxy?.close();
    await database?.drop();
  });

  it('times a stalled query out as a 503, drops the stalled connections, and recovers at once', async () => {
    // Several pooled connections, all about to go through the stall.
    expect((await Promise.all(Array.from({ length: 5 }, read))).map((result) => result.status)).toEqual([200, 200, 200, 200, 200]);
    proxy.stall();
    const [stalled, ms] = await timed(read);
    expectUnavailable(stalled);
    expect(ms).toBeLessThan(TIMEOUTS.queryMs + 1_000);

    // Writes too, and more requests than the pool has connections: each waits its limit, none hangs or fails with a 500.
    const [burst, burstMs] = await timed(() => Promise.all([...Array.from({ length: 12 }, read), append(1), append(2)]));
    for (const result of burst) expectUnavailable(result);
    expect(burstMs).toBeLessThan(TIMEOUTS.queryMs + TIMEOUTS.connectMs + 2_000);

    proxy.resume();
    // The stalled connections were dropped: the first request gets a fresh one.
    expect(await recoveryMs(3_000)).toBeLessThan(500);
    const after = await Promise.all(Array.from({ length: 10 }, read));
    expect(after.map((result) => result.status)).toEqual(Array(10).fill(200));
    // Held answers that arrived late changed nothing: the appends that timed out are not stored twice or half.
    const events = (await read()).json as { events: { actions: { stateDelta: { n?: number } } }[] };
    expect(events.events.filter((event) => event.actions.stateDelta.n !== undefined).length).toBeLessThanOrEqual(2);
  });

  it('answers 503 while new connections cannot be made, and recovers when they can', async () => {
    proxy.cut();
    proxy.stall();
    const [result, ms] = await timed(read);
    expectUnavailable(result);
    expect(ms).toBeLessThan(TIMEOUTS.connectMs + TIMEOUTS.queryMs + 1_000);
    proxy.resume();
    expect(await recoveryMs(3_000)).toBeLessThan(3_000);
  });

  it('gives only 200s and 503s when every connection is cut under load, then recovers', async () => {
    const load = Promise.all(Array.from({ length: 40 }, (_, n) => (n % 2 ? read() : append(100 + n))));
    await new Promise((resolve) => setTimeout(resolve, 20));
    proxy.cut();
    const statuses = (await load).map((result) => result.status);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(await recoveryMs(3_000)).toBeLessThan(3_000);
  });

  it('cancels a statement that waits on a lock longer than the statement timeout', async () => {
    const locker = new (await import('pg')).default.Client({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query(`SELECT 1 FROM sessions WHERE app_name = 'stall' FOR UPDATE`);
      const [result, ms] = await timed(() => append(7));
      expectUnavailable(result);
      expect(ms).toBeLessThan(TIMEOUTS.statementMs + 1_000);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    expect((await append(8)).status).toBe(200);
    expect(await queryPostgres(database.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });
});
