import { redactUrl } from './url';

// Which errors mean "the database cannot be used right now" (an outage an
// operator fixes) rather than a bug: every edge answers those with 503.

/** Raised when the service itself cannot be built (bad DATABASE_URL, migration of an unreachable file). */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/** Prisma's codes for "could not reach / log in to / find the database" and pool timeouts. */
const PRISMA_CODES = new Set(['P1000', 'P1001', 'P1002', 'P1003', 'P1008', 'P1010', 'P1011', 'P1017', 'P2024']);
/**
 * Driver adapter error kinds with the same meaning (SocketTimeout is also
 * SQLite's SQLITE_BUSY; TableDoesNotExist is a database nobody migrated yet,
 * which an operator fixes, not a bug).
 */
const ADAPTER_KINDS = new Set([
  'TableDoesNotExist',
  'DatabaseNotReachable',
  'DatabaseDoesNotExist',
  'DatabaseAccessDenied',
  'AuthenticationFailed',
  'ConnectionClosed',
  'TlsConnectionError',
  'TooManyConnections',
  'SocketTimeout',
]);
/** Node socket errors, PostgreSQL connection-class SQLSTATEs, SQLite file errors. */
const DRIVER_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
  '57P01',
  '57P02',
  '57P03',
  // statement_timeout (or a cancel), lock_timeout, idle_in_transaction_session_timeout: a server too busy to answer in time.
  '57014',
  '55P03',
  '25P03',
]);
/**
 * pg and pg-pool report a connection that timed out or broke with a bare
 * Error (no code), so its message is all there is.
 */
const PG_CONNECTION_MESSAGES = [
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
];
const SQLITE_PREFIXES = ['SQLITE_CANTOPEN', 'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_FULL', 'SQLITE_READONLY'];

function field(value: object, name: string): unknown {
  return (value as Record<string, unknown>)[name];
}

/**
 * Whether an error means the database cannot be used right now (as opposed to
 * a bug). Prisma wraps driver errors a few levels deep (error.meta.driverAdapterError.cause),
 * so the chain is walked.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 20) {
    const current = queue.shift();
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    if (current instanceof DatabaseUnavailableError) return true;
    const name = field(current, 'name');
    if (name === 'PrismaClientInitializationError') return true;
    const message = field(current, 'message');
    if (typeof message === 'string' && PG_CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
    for (const key of ['code', 'kind', 'originalCode']) {
      const code = field(current, key);
      if (typeof code !== 'string') continue;
      if (PRISMA_CODES.has(code) || ADAPTER_KINDS.has(code) || DRIVER_CODES.has(code)) return true;
      if (SQLITE_PREFIXES.some((prefix) => code.startsWith(prefix))) return true;
    }
    for (const key of ['cause', 'meta', 'driverAdapterError', 'errors']) {
      const next = field(current, key);
      if (Array.isArray(next)) queue.push(...(next as unknown[]));
      else queue.push(next);
    }
  }
  return false;
}

/** One line for the log and the answer: the failure's first line, with any database URL's password removed. */
export function databaseFailureSummary(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  return redactUrl(error.message).trim().split('\n')[0] || error.name;
}
