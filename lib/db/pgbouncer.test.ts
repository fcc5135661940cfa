// Behind PgBouncer in transaction mode, the usual way to share one
// PostgreSQL among many servers, each statement may run on another server
// connection, so a statement prepared by name on one is unknown on the next.
// `pgbouncer=true` in the URL (Prisma's spelling) makes every statement run
// unnamed. A real PgBouncer (Debian's package) stands between the store and
// the test server, with two server connections for many clients.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServices } from '../services';
import { createMigratedDatabase, POSTGRES_ADMIN_URL, testProviders, type ScratchDatabase } from '../testing/databases';
import { uniqueName } from '../testing/factories';
import { behindPgBouncer } from './url';

const PGBOUNCER = '/usr/sbin/pgbouncer';
const installed = spawnSync(PGBOUNCER, ['--version']).status === 0;
const postgres = (await testProviders()).includes('postgresql');
if (!installed && process.env.CI && postgres)
  throw new Error(`${PGBOUNCER} is missing: CI must run the PgBouncer tests (apt-get install pgbouncer).`);

describe('behindPgBouncer', () => {
  it('reads pgbouncer=true from the query, and nothing else', () => {
    expect(behindPgBouncer('postgresql://u@h/db?pgbouncer=true')).toBe(true);
    expect(behindPgBouncer('postgresql://u@h/db?sslmode=require&pgbouncer=true')).toBe(true);
    expect(behindPgBouncer('postgresql://u@h/db?pgbouncer=false')).toBe(false);
    expect(behindPgBouncer('postgresql://u@h/pgbouncer=true')).toBe(false);
    expect(behindPgBouncer('postgresql://u@h/db')).toBe(false);
  });
});

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** PgBouncer in transaction mode in front of the test server, pooling every client onto two server connections. */
async function startPgBouncer(dir: string): Promise<{ port: number; process: ChildProcess }> {
  const server = new URL(POSTGRES_ADMIN_URL);
  const port = await freePort();
  writeFileSync(join(dir, 'users.txt'), `"${decodeURIComponent(server.username) || 'postgres'}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 2',
      'max_client_conn = 100',
      // node-postgres sends the statement timeout as a startup parameter; PgBouncer refuses any it does not know.
      'ignore_startup_parameters = statement_timeout,extra_float_digits,options',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: it is started as the server's own user then.
  const asUser = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  if (asUser.length) chmodSync(dir, 0o755);
  const child = spawn(PGBOUNCER, [...asUser, join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  for (let tries = 0; tries < 100; tries++) {
    const listening = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (listening) return { port, process: child };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill();
  throw new Error(`PgBouncer did not start:\n${log}`);
}

describe.skipIf(!installed || !postgres)('the native store behind PgBouncer in transaction mode', () => {
  let dir: string;
  let bouncer: ChildProcess | undefined;
  let database: ScratchDatabase;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statehouse-pgbouncer-'));
    database = await createMigratedDatabase('postgresql', 'pgbouncer');
    const started = await startPgBouncer(dir);
    bouncer = started.process;
    const target = new URL(database.url);
    target.port = String(started.port);
    target.searchParams.set('pgbouncer', 'true');
    url = target.toString();
  });

  afterAll(async () => {
    bouncer?.kill();
    await database?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates, appends and reads from many clients at once, each statement on whichever server connection is free', async () => {
    const { store, close } = await openServices(url, { migrate: false });
    try {
      const appName = uniqueName('bouncer');
      const refs = Array.from({ length: 8 }, (_, i) => ({ appName, userId: `u${i % 2}`, sessionId: `s${i}` }));
      await Promise.all(refs.map((ref) => store.createSession({ ...ref, state: { topic: ref.sessionId, 'user:plan': 'pro' } })));
      for (let turn = 1; turn <= 5; turn++) {
        await Promise.all(
          refs.map(async (ref) => {
            await store.append(ref, { author: 'agent', actions: { stateDelta: { turn, 'app:n': turn } } });
            await store.getSession(ref, { numRecentEvents: 20 });
          }),
        );
      }
      for (const ref of refs) {
        const session = await store.getSession(ref);
        expect(session?.events).toHaveLength(5);
        expect(session?.state).toMatchObject({ topic: ref.sessionId, turn: 5, 'app:n': 5, 'user:plan': 'pro' });
      }
    } finally {
      await close();
    }
  });
});
