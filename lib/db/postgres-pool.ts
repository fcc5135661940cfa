// The PostgreSQL connection pool, with every wait bounded: a server that
// stops answering (a stalled network, a half-open connection, a lock held
// for ever) fails a request within seconds instead of hanging it, and the
// connections that stalled are dropped so the pool recovers by itself.
import pg from 'pg';

export interface PostgresTimeouts {
  /** Opening a connection, and waiting for a free one in the pool. */
  connectMs: number;
  /** Server side: a statement running (or waiting for a lock) this long is cancelled (SQLSTATE 57014). */
  statementMs: number;
  /** Client side: no answer this long means the connection is dead; it is destroyed. */
  queryMs: number;
  /** Idle connections are closed after this long, so few stale ones are ever pooled. */
  idleMs: number;
}

export const POSTGRES_TIMEOUTS: PostgresTimeouts = {
  connectMs: 10_000,
  statementMs: 10_000,
  // Later than the server's own limit, so a slow statement ends with the server's clean error and a reusable connection.
  queryMs: 12_000,
  idleMs: 10_000,
};

/** What pg answers when a connection never answered or broke: the connection cannot be trusted again. */
const DEAD_CONNECTION = /^(Query read timeout|Connection terminated)/;

/**
 * What the server answers a prepared statement (lib/db/prepared.ts) whose
 * result changed shape under it (a migration replaced a function or table
 * while connections stayed open): every connection that prepared it answers
 * the same until it is closed, so it is, with the idle ones.
 */
const STALE_PREPARED = /^cached plan must not change result type/;

type Callback = (error: Error | null, result?: unknown) => void;

interface Tracked {
  idle: Set<pg.PoolClient>;
}

function destroy(client: pg.PoolClient): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/**
 * After a query found its connection dead: destroy it (pg would otherwise
 * keep it, its next query queued behind the one that never finished), and
 * every idle one too, which went through the same network and would each
 * cost a request the same wait.
 */
function evictAfter(error: unknown, client: pg.PoolClient, tracked: Tracked): void {
  if (!(error instanceof Error) || !(DEAD_CONNECTION.test(error.message) || STALE_PREPARED.test(error.message))) return;
  destroy(client);
  for (const idle of tracked.idle) destroy(idle);
}

function watchQueries(client: pg.PoolClient, tracked: Tracked): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const last = args.at(-1);
    if (typeof last === 'function') {
      const callback = last as Callback;
      args[args.length - 1] = (error: Error | null, result?: unknown) => {
        if (error) evictAfter(error, client, tracked);
        callback(error, result);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) result.then(undefined, (error: unknown) => evictAfter(error, client, tracked));
    return result;
  };
}

export function postgresPool(connectionString: string, timeouts: PostgresTimeouts = POSTGRES_TIMEOUTS): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    connectionTimeoutMillis: timeouts.connectMs,
    idleTimeoutMillis: timeouts.idleMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.queryMs,
    // The kernel notices a peer that vanished (no FIN, no RST) on an idle connection.
    keepAlive: true,
    keepAliveInitialDelayMillis: timeouts.idleMs,
  });
  const tracked: Tracked = { idle: new Set() };
  pool.on('connect', (client) => {
    // A broken connection is reported through the query that meets it; its 'error' event must not crash the process.
    client.on('error', () => undefined);
    watchQueries(client, tracked);
  });
  pool.on('acquire', (client) => tracked.idle.delete(client));
  pool.on('release', (_error, client) => tracked.idle.add(client));
  pool.on('remove', (client) => tracked.idle.delete(client));
  return pool;
}
