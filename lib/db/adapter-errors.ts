// Readable messages for driver adapter errors. Their own message is only the
// error kind ("DatabaseNotReachable"); the details are fields of `cause`.
// The adapter error stays as the `cause`, so lib/http/errors.ts still finds
// its kind and code.

interface AdapterCause {
  kind: string;
  [field: string]: unknown;
}

function causeOf(error: unknown): AdapterCause | null {
  if (!(error instanceof Error) || error.name !== 'DriverAdapterError') return null;
  const cause = (error as { cause?: unknown }).cause;
  return cause && typeof cause === 'object' && typeof (cause as { kind?: unknown }).kind === 'string' ? (cause as AdapterCause) : null;
}

function text(value: unknown, fallback = '(not available)'): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : fallback;
}

function messageOf(cause: AdapterCause): string {
  switch (cause.kind) {
    case 'DatabaseNotReachable':
      return `Can't reach database server at ${text(cause.host)}${cause.port ? `:${text(cause.port)}` : ''}`;
    case 'DatabaseDoesNotExist':
      return `Database \`${text(cause.db)}\` does not exist on the database server`;
    case 'DatabaseAccessDenied':
      return `User was denied access on the database \`${text(cause.db)}\``;
    case 'AuthenticationFailed':
      return `Authentication failed against the database server for user \`${text(cause.user)}\``;
    case 'ConnectionClosed':
      return 'Server has closed the connection.';
    case 'SocketTimeout':
      return 'Operation has timed out (the database is busy or locked).';
    case 'TooManyConnections':
      return `Too many database connections opened: ${text(cause.cause, '')}`;
    case 'TlsConnectionError':
      return `Error opening a TLS connection: ${text(cause.reason, '')}`;
    case 'TableDoesNotExist':
      return `The table \`${text(cause.table)}\` does not exist in the current database (are the migrations applied?).`;
    case 'TransactionWriteConflict':
      return 'Transaction failed due to a write conflict or a deadlock.';
    default:
      return text(cause.originalMessage, '') || text(cause.message, '') || cause.kind;
  }
}

/** The error to throw for one from an adapter: readable, with the original as its cause. */
export function readableAdapterError(error: unknown): unknown {
  const cause = causeOf(error);
  if (!cause) return error;
  const readable = new Error(messageOf(cause), { cause: error });
  readable.name = 'DatabaseError';
  return readable;
}

/** A unique index refused the row: the driver adapters' kind, or the databases' codes. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current !== null && typeof current === 'object' && depth < 6; depth += 1) {
    const fields = current as { kind?: unknown; code?: unknown; originalCode?: unknown; cause?: unknown };
    if (fields.kind === 'UniqueConstraintViolation') return true;
    if (fields.originalCode === '23505' || fields.code === '23505' || fields.code === 'SQLITE_CONSTRAINT_UNIQUE') return true;
    current = fields.cause;
  }
  return false;
}
