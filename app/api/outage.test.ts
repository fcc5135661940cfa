// The database going away under a running service: PostgreSQL unreachable
// (behind a TCP proxy this test stops and starts), its connections killed,
// its database renamed; a SQLite file locked by another connection. Each is a
// 503 with a clear detail that changes nothing, and the same service object
// recovers once the database is back: no restart.
import net from 'node:net';
import Sqlite from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setServicesForTests } from '@/lib/services';
import { openDatabase, sqliteFilePath, type Database } from '@/lib/db';
import { call, databaseDump, detailOf } from '@/lib/testing/http';
import { createNativeSessionStore } from '@/lib/stores/native';
import { createScratchDatabase, createTestDatabase, postgresAdmin, testProviders, type TestDatabase } from '@/lib/testing/databases';
import * as listApps from './list-apps/route';
import * as sessions from './apps/[app]/users/[user]/sessions/route';
import * as session from './apps/[app]/users/[user]/sessions/[id]/route';
import * as events from './apps/[app]/users/[user]/sessions/[id]/events/route';

const providers = await testProviders();
const target = { app: 'outage', user: 'u', id: 's' };
/** A TCP proxy in front of PostgreSQL that can be cut (listener closed, live connections reset) and restored on the same port. */
class PostgresProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly upstream: { host: string; port: number }) {}

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.upstream.port, this.upstream.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.resetAndDestroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function withPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.host = `127.0.0.1:${port}`;
  return parsed.toString();
}

/** Ends every connection to database `name` but the one asking. */
function terminateConnections(name: string): Promise<void> {
  return postgresAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
}

beforeEach(() => {
  // The 503s log the driver error for operators; keep the test output readable.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe.skipIf(!providers.includes('postgresql'))('PostgreSQL going away', () => {
  let database: TestDatabase;
  let proxy: PostgresProxy;
  let viaProxy: Database;

  beforeAll(async () => {
    database = await createTestDatabase('postgresql');
    const server = new URL(database.url);
    proxy = new PostgresProxy({ host: server.hostname, port: Number(server.port || 5432) });
    await proxy.start();
    viaProxy = await openDatabase(withPort(database.url, proxy.port));
    setServicesForTests({ store: createNativeSessionStore(viaProxy.client, viaProxy.provider) });
    const created = await call(sessions.POST, 'POST', { params: target, body: { sessionId: 's', state: { 'user:plan': 'pro' } } });
    expect(created.status).toBe(200);
  });
  afterAll(async () => {
    setServicesForTests({});
    await proxy?.start().catch(() => undefined);
    await viaProxy?.close();
    await proxy?.stop();
    await database?.drop();
  });

  it('answers 503 while the server cannot be reached, and recovers when it can', async () => {
    const before = await databaseDump(database);
    await proxy.stop();

    for (const result of [
      await call(session.GET, 'GET', { params: target }),
      await call(listApps.GET, 'GET'),
      await call(session.PATCH, 'PATCH', { params: target, body: { stateDelta: { lost: true } } }),
      await call(events.POST, 'POST', { params: target, body: { author: 'agent', actions: { stateDelta: { lost: true } } } }),
    ]) {
      expect(result.status, result.text).toBe(503);
      // A pooled connection notices it was cut; a new one cannot connect.
      expect(detailOf(result)).toMatch(
        new RegExp(
          `^Database unavailable: (Server has closed the connection\\.|Can't reach database server at 127\\.0\\.0\\.1:${proxy.port})$`,
        ),
      );
    }
    expect(await databaseDump(database)).toEqual(before);

    await proxy.start();
    const patched = await call(session.PATCH, 'PATCH', { params: target, body: { stateDelta: { back: true } } });
    expect(patched.status, patched.text).toBe(200);
    expect((patched.json as { state: object }).state).toEqual({ back: true, 'user:plan': 'pro' });
  });

  it('recovers when the server ends every connection (restart, failover)', async () => {
    // Warm the pool, then kill its connections from the server side.
    expect((await call(session.GET, 'GET', { params: target })).status).toBe(200);
    const name = new URL(database.url).pathname.slice(1);
    await terminateConnections(name);

    // A request may meet a dead connection once (503, never a 500); the pool replaces it.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const result = await call(events.POST, 'POST', {
        params: target,
        body: { author: 'agent', actions: { stateDelta: { n: attempt } } },
      });
      statuses.push(result.status);
      if (result.status === 200) break;
      expect(result.status, result.text).toBe(503);
    }
    expect(statuses.at(-1)).toBe(200);
  });

  it('answers 503 naming the database when it is gone, and recovers when it is back', async () => {
    const name = new URL(database.url).pathname.slice(1);
    await terminateConnections(name);
    await postgresAdmin(`ALTER DATABASE "${name}" RENAME TO "${name}_away"`);
    try {
      const result = await call(session.PATCH, 'PATCH', { params: target, body: { stateDelta: { lost: true } } });
      expect(result.status, result.text).toBe(503);
      expect(detailOf(result)).toBe(`Database unavailable: Database \`${name}\` does not exist on the database server`);
    } finally {
      await terminateConnections(`${name}_away`);
      await postgresAdmin(`ALTER DATABASE "${name}_away" RENAME TO "${name}"`);
    }
    const back = await call(session.GET, 'GET', { params: target });
    expect(back.status, back.text).toBe(200);
    expect((back.json as { state: Record<string, unknown> }).state.lost).toBeUndefined();
  });
});

describe('SQLite locked by another connection', () => {
  let database: TestDatabase;
  let locker: Sqlite.Database | undefined;

  beforeAll(async () => {
    // Writes wait this long for another process's lock before giving up (the default is 5 s).
    process.env.STATEHOUSE_SQLITE_BUSY_TIMEOUT_MS = '200';
    database = await createTestDatabase('sqlite');
    setServicesForTests({ store: database.service });
    expect((await call(sessions.POST, 'POST', { params: target, body: { sessionId: 's' } })).status).toBe(200);
  });
  afterAll(async () => {
    delete process.env.STATEHOUSE_SQLITE_BUSY_TIMEOUT_MS;
    setServicesForTests({});
    locker?.close();
    await database?.drop();
  });

  const busy = 'Database unavailable: Operation has timed out (the database is busy or locked).';

  it('answers 503 for writes while another connection holds the write lock; reads go on; writes resume', async () => {
    const before = await databaseDump(database);
    locker = new Sqlite(sqliteFilePath(database.url));
    locker.exec('BEGIN EXCLUSIVE');

    for (const result of [
      await call(session.PATCH, 'PATCH', { params: target, body: { stateDelta: { lost: true } } }),
      await call(events.POST, 'POST', { params: target, body: { author: 'agent' } }),
      await call(sessions.POST, 'POST', { params: target, body: { sessionId: 'other' } }),
    ]) {
      expect(result.status, result.text).toBe(503);
      expect(detailOf(result)).toBe(busy);
    }
    // WAL: readers are never blocked by a writer.
    expect((await call(session.GET, 'GET', { params: target })).status).toBe(200);
    expect(await databaseDump(database)).toEqual(before);

    locker.exec('ROLLBACK');
    const patched = await call(session.PATCH, 'PATCH', { params: target, body: { stateDelta: { back: true } } });
    expect(patched.status, patched.text).toBe(200);
    locker.close();
    locker = undefined;
  });
});

describe.each(providers)('a database nobody migrated, on %s', (provider) => {
  it('answers 503 saying the tables are missing', async () => {
    const unmigrated = await createScratchDatabase(provider, 'unmigrated');
    const empty = await openDatabase(unmigrated.url);
    try {
      setServicesForTests({ store: createNativeSessionStore(empty.client, empty.provider) });
      const result = await call(sessions.GET, 'GET', { params: { app: 'a', user: 'u' } });
      expect(result.status, result.text).toBe(503);
      expect(detailOf(result)).toMatch(
        /^Database unavailable: The table `(public\.)?\w+` does not exist in the current database \(are the migrations applied\?\)\.$/,
      );
    } finally {
      setServicesForTests({});
      await empty.close();
      await unmigrated.remove();
    }
  });
});
