/**
 * Test helpers: call exported route handlers with real Request objects, as
 * Next would (params as a Promise, already URL-decoded), and dump the
 * database to prove a failed request changed nothing.
 */
import { raw, sqltag as sql } from '@prisma/client/runtime/client';
import type { TestDatabase } from './databases';

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

export interface CallOptions<P> {
  params?: P;
  /** Query string, without `?`. */
  query?: string;
  /** A string or bytes is sent as is; anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The request's path, for routes whose access depends on it; defaults to /api/test. */
  path?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  /** The parsed JSON body. */
  json: unknown;
  text: string;
}

function requestBody(body: unknown): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array || body instanceof ReadableStream) return body as BodyInit;
  return JSON.stringify(body);
}

export async function call<P>(handler: Handler<P>, method: string, options: CallOptions<P> = {}): Promise<CallResult> {
  const init: RequestInit & { duplex?: 'half' } = { method, headers: options.headers, body: requestBody(options.body) };
  // Node needs duplex for streamed request bodies.
  if (options.body instanceof ReadableStream) init.duplex = 'half';
  const request = new Request(`http://localhost${options.path ?? '/api/test'}${options.query ? `?${options.query}` : ''}`, init);
  const response = await handler(request, { params: Promise.resolve((options.params ?? {}) as P) });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** The `detail` of a JSON error response (FastAPI's shape), or '' when the object has none. */
export function detailOf(result: Pick<CallResult, 'json'>): string {
  return (result.json as { detail?: string }).detail ?? '';
}

/** Every table of the database, migrations' bookkeeping aside. */
async function tableNames(database: TestDatabase): Promise<string[]> {
  const rows =
    database.provider === 'sqlite'
      ? await database.db.client.$queryRaw<{ name: string }[]>(
          // The FTS5 index (search_fts and its shadow tables) is derived from search_docs, which is dumped.
          sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'search_fts%'`,
        )
      : await database.db.client.$queryRaw<{ name: string }[]>(
          sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
        );
  return rows
    .map((row) => row.name)
    .filter((name) => name !== '_prisma_migrations')
    .sort();
}

const canonical = (row: unknown) => JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value));

/**
 * The whole content of every table, rows in a stable order, as JSON text per
 * row: equal dumps mean nothing was inserted, updated or deleted.
 */
export async function databaseDump(database: TestDatabase): Promise<Record<string, string[]>> {
  const dump: Record<string, string[]> = {};
  for (const table of await tableNames(database)) {
    const rows = await database.db.client.$queryRaw<unknown[]>(sql`SELECT * FROM ${raw(`"${table}"`)}`);
    dump[table] = rows.map(canonical).sort();
  }
  return dump;
}
