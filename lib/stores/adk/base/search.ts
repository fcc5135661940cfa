// The header search on a database an ADK writes. Statehouse adds no index to
// the agent's database, so this is a bounded scan: the shared tiers (few
// rows), then the sessions in primary-key chunks, each chunk one query that
// tests ids and state text in the database, until enough hits or the time
// budget is spent; the answer says how many sessions it looked through.
import {
  DEFAULT_FIND_LIMIT,
  distinctHits,
  MIN_FIND_LENGTH,
  snippetOf,
  type FindHit,
  type FindRequest,
  type FindResult,
} from '../../../session-service/search';
import { scopeOfKey } from '../../../session-service/scope';
import type { Param } from '../agent-db';
import type { AdkStoreContext } from './context';
import { containsFolded, type Fragment } from './sql';

/** Sessions per query: small enough that one chunk stays well inside the budget. */
export const SCAN_CHUNK = 2_000;

/** How long a find looks before answering with what it found (the first chunk is always read). */
export const FIND_BUDGET_MS = 700;

export interface ScanOptions {
  budgetMs?: number;
  chunk?: number;
}

/** A JSON column as text, whatever type the family gave it. */
function asText(ctx: AdkStoreContext, column: string): string {
  if (ctx.db.dialect === 'postgresql') return `CAST(${column} AS TEXT)`;
  return ctx.db.dialect === 'mysql' ? `CAST(${column} AS CHAR)` : column;
}

/**
 * The first key of a state blob whose value's JSON text contains the needle,
 * with its text. A session's blob is searched for its own keys only: some
 * ADKs (adk-rust) keep copies of the shared tiers' prefixed keys in it.
 */
function matchedKey(blob: unknown, needle: string, ownKeysOnly = false): { key: string; text: string } | null {
  let state: unknown = blob;
  if (typeof blob === 'string') {
    try {
      state = JSON.parse(blob);
    } catch {
      return null;
    }
  }
  if (typeof state !== 'object' || state === null) return null;
  for (const [key, value] of Object.entries(state)) {
    if (ownKeysOnly && scopeOfKey(key).scope !== 'session') continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (text.toLowerCase().includes(needle)) return { key, text };
  }
  return null;
}

export async function find(ctx: AdkStoreContext, request: FindRequest, options: ScanOptions = {}): Promise<FindResult> {
  const text = request.text.trim();
  const limit = request.limit ?? DEFAULT_FIND_LIMIT;
  if (text.length < MIN_FIND_LENGTH) return { hits: [] };
  const needle = text.toLowerCase();
  const budget = options.budgetMs ?? FIND_BUDGET_MS;
  const chunk = options.chunk ?? SCAN_CHUNK;
  const started = performance.now();
  const { s, a, u } = ctx;
  const inApp = (column: string): Fragment =>
    request.appName === undefined ? { sql: '1 = 1', params: [] } : { sql: `${column} = ?`, params: [request.appName] };
  return ctx.db.read(async (qx) => {
    const hits: FindHit[] = [];
    const appFilter = inApp(a.app);
    const appHas = containsFolded(ctx.db.dialect, asText(ctx, a.state), needle);
    for (const row of await qx.all(`SELECT ${a.app} AS app, ${a.state} AS state FROM ${a.t} WHERE ${appFilter.sql} AND ${appHas.sql}`, [
      ...appFilter.params,
      ...appHas.params,
    ])) {
      const found = matchedKey(row.state, needle);
      if (found) hits.push({ kind: 'app', appName: String(row.app), matched: `app:${found.key}`, snippet: snippetOf(found.text, text) });
    }
    const userFilter = inApp(u.app);
    const userHas = containsFolded(ctx.db.dialect, asText(ctx, u.state), needle);
    for (const row of await qx.all(
      `SELECT ${u.app} AS app, ${u.user} AS user_id, ${u.state} AS state FROM ${u.t} WHERE ${userFilter.sql} AND ${userHas.sql}`,
      [...userFilter.params, ...userHas.params],
    )) {
      const found = matchedKey(row.state, needle);
      if (found) {
        hits.push({
          kind: 'user',
          appName: String(row.app),
          userId: String(row.user_id),
          matched: `user:${found.key}`,
          snippet: snippetOf(found.text, text),
        });
      }
    }

    const sessionFilter = inApp(s.app);
    const total = Number((await qx.all(`SELECT count(*) AS n FROM ${s.t} WHERE ${sessionFilter.sql}`, sessionFilter.params))[0]?.n ?? 0);
    const stateHas = containsFolded(ctx.db.dialect, asText(ctx, s.state), needle);
    const idHas = containsFolded(ctx.db.dialect, s.id, needle);
    const userIdHas = containsFolded(ctx.db.dialect, s.user, needle);
    let after: Param[] | null = null;
    let searched = 0;
    while (true) {
      const from: Fragment = after ? { sql: `(${s.app}, ${s.user}, ${s.id}) > (?, ?, ?)`, params: after } : { sql: '1 = 1', params: [] };
      const rows = await qx.all(
        `SELECT ${s.app} AS app, ${s.user} AS user_id, ${s.id} AS id,
           CASE WHEN ${userIdHas.sql} THEN 1 ELSE 0 END AS in_user,
           CASE WHEN ${idHas.sql} THEN 1 ELSE 0 END AS in_id,
           CASE WHEN ${stateHas.sql} THEN ${s.state} END AS state
         FROM ${s.t} WHERE ${sessionFilter.sql} AND ${from.sql}
         ORDER BY ${s.app}, ${s.user}, ${s.id} LIMIT ?`,
        [...userIdHas.params, ...idHas.params, ...stateHas.params, ...sessionFilter.params, ...from.params, chunk],
      );
      searched += rows.length;
      for (const row of rows) {
        const at = { appName: String(row.app), userId: String(row.user_id) };
        if (Number(row.in_user) === 1) hits.push({ kind: 'user', ...at, matched: 'user id', snippet: at.userId });
        if (Number(row.in_id) === 1)
          hits.push({ kind: 'session', ...at, sessionId: String(row.id), matched: 'id', snippet: String(row.id) });
        const found = row.state === null || row.state === undefined ? null : matchedKey(row.state, needle, true);
        if (found)
          hits.push({ kind: 'session', ...at, sessionId: String(row.id), matched: found.key, snippet: snippetOf(found.text, text) });
      }
      const last = rows[rows.length - 1];
      const enough = distinctHits(hits, limit).length >= limit;
      if (!last || rows.length < chunk || enough || performance.now() - started > budget) break;
      after = [last.app as Param, last.user_id as Param, last.id as Param];
    }
    const result: FindResult = { hits: distinctHits(hits, limit) };
    return searched < total ? { ...result, coverage: { searched, total, unit: 'sessions' } } : result;
  });
}
