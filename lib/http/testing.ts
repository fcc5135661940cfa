/**
 * Test helpers: call exported route handlers with real Request objects, as
 * Next would (params as a Promise, already URL-decoded), and count rows to
 * prove a failed request changed nothing.
 */
import { raw, sqltag as sql } from '@prisma/client/runtime/client';
import { toNumber } from '../session-service/dialect';
import type { TestDatabase } from '../testing/databases';

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

export interface CallOptions<P> {
  params?: P;
  /** Query string, without `?`. */
  query?: string;
  /** A string or bytes is sent as is; anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
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

export async function call<P>(
  handler: Handler<P>,
  method: string,
  options: CallOptions<P> = {},
): Promise<CallResult> {
  const init: RequestInit & { duplex?: 'half' } = { method, headers: options.headers, body: requestBody(options.body) };
  // Node needs duplex for streamed request bodies.
  if (options.body instanceof ReadableStream) init.duplex = 'half';
  const request = new Request(`http://localhost/api/test${options.query ? `?${options.query}` : ''}`, init);
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

const TABLES = ['sessions', 'events', 'app_state', 'user_state', 'session_state', 'state_changes'] as const;

/** Row counts of every table. */
export async function rowCounts(database: TestDatabase): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const rows = await database.db.client.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM ${raw(table)}`);
    counts[table] = toNumber(rows[0]?.n ?? 0);
  }
  return counts;
}
