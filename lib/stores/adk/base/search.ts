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
import type { AgentQuery, Param } from '../agent-db';
import type { AdkStoreContext } from './context';
import { keyText, type FillCursor } from './search-index';
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

/** The shared tiers' hits: app and user state values (one row per app or user, read whole). */
async function tierHits(ctx: AdkStoreContext, qx: AgentQuery, text: string, appName: string | undefined): Promise<FindHit[]> {
  const needle = text.toLowerCase();
  const { a, u } = ctx;
  const hits: FindHit[] = [];
  const appFilter = inApp(a.app, appName);
  const appHas = containsFolded(ctx.db.dialect, asText(ctx, a.state), needle);
  for (const row of await qx.all(`SELECT ${a.app} AS app, ${a.state} AS state FROM ${a.t} WHERE ${appFilter.sql} AND ${appHas.sql}`, [
    ...appFilter.params,
    ...appHas.params,
  ])) {
    const found = matchedKey(row.state, needle);
    if (found) hits.push({ kind: 'app', appName: String(row.app), matched: `app:${found.key}`, snippet: snippetOf(found.text, text) });
  }
  const userFilter = inApp(u.app, appName);
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
  return hits;
}

function inApp(column: string, appName: string | undefined): Fragment {
  return appName === undefined ? { sql: '1 = 1', params: [] } : { sql: `${column} = ?`, params: [appName] };
}

interface ScanResult {
  hits: FindHit[];
  searched: number;
}

/**
 * The sessions after `after` in key order, in chunks, each one query testing
 * ids and state text in the agent's database, until `enough` hits or the
 * budget is spent (the first chunk is always read).
 */
async function scanSessions(
  ctx: AdkStoreContext,
  qx: AgentQuery,
  request: { text: string; appName?: string; after: FillCursor | null; enough: (hits: FindHit[]) => boolean },
  budget: { started: number; ms: number; chunk: number },
): Promise<ScanResult> {
  const { text } = request;
  const needle = text.toLowerCase();
  const { s } = ctx;
  const hits: FindHit[] = [];
  const sessionFilter = inApp(s.app, request.appName);
  const stateHas = containsFolded(ctx.db.dialect, asText(ctx, s.state), needle);
  const idHas = containsFolded(ctx.db.dialect, s.id, needle);
  const userIdHas = containsFolded(ctx.db.dialect, s.user, needle);
  // After a fill's cursor, in the fill's order: a rowid (SQLite) or a key.
  let after: number | Param[] | null = request.after;
  const byRowid = typeof after === 'number';
  let searched = 0;
  while (true) {
    const from: Fragment =
      typeof after === 'number'
        ? { sql: 'rowid > ?', params: [after] }
        : after
          ? { sql: `(${s.app}, ${s.user}, ${s.id}) > (?, ?, ?)`, params: after }
          : { sql: '1 = 1', params: [] };
    const rows = await qx.all(
      `SELECT ${byRowid ? 'rowid AS r, ' : ''}${s.app} AS app, ${s.user} AS user_id, ${s.id} AS id,
         CASE WHEN ${userIdHas.sql} THEN 1 ELSE 0 END AS in_user,
         CASE WHEN ${idHas.sql} THEN 1 ELSE 0 END AS in_id,
         CASE WHEN ${stateHas.sql} THEN ${s.state} END AS state
       FROM ${s.t} WHERE ${sessionFilter.sql} AND ${from.sql}
       ORDER BY ${byRowid ? 'rowid' : `${s.app}, ${s.user}, ${s.id}`} LIMIT ?`,
      [...userIdHas.params, ...idHas.params, ...stateHas.params, ...sessionFilter.params, ...from.params, budget.chunk],
    );
    searched += rows.length;
    for (const row of rows) {
      const at = { appName: String(row.app), userId: String(row.user_id) };
      if (Number(row.in_user) === 1) hits.push({ kind: 'user', ...at, matched: 'user id', snippet: at.userId });
      if (Number(row.in_id) === 1) hits.push({ kind: 'session', ...at, sessionId: String(row.id), matched: 'id', snippet: String(row.id) });
      const found = row.state === null || row.state === undefined ? null : matchedKey(row.state, needle, true);
      if (found) hits.push({ kind: 'session', ...at, sessionId: String(row.id), matched: found.key, snippet: snippetOf(found.text, text) });
    }
    const last = rows[rows.length - 1];
    if (!last || rows.length < budget.chunk || request.enough(hits) || performance.now() - budget.started > budget.ms) break;
    after = byRowid ? Number(last.r) : [last.app as Param, last.user_id as Param, last.id as Param];
  }
  return { hits, searched };
}

/** The hits whose session is still in the agent's database: the index may not have followed a deletion yet. */
async function stillThere(ctx: AdkStoreContext, qx: AgentQuery, hits: FindHit[]): Promise<FindHit[]> {
  const sessions = hits.filter((hit) => hit.kind === 'session' && hit.userId !== undefined && hit.sessionId !== undefined);
  if (sessions.length === 0) return hits;
  const { s } = ctx;
  const rows = await qx.all(
    `SELECT ${s.app} AS app, ${s.user} AS user_id, ${s.id} AS id FROM ${s.t}
     WHERE ${sessions.map(() => `(${s.app} = ? AND ${s.user} = ? AND ${s.id} = ?)`).join(' OR ')}`,
    sessions.flatMap((hit) => [hit.appName, hit.userId as string, hit.sessionId as string]),
  );
  const present = new Set(rows.map((row) => keyText([String(row.app), String(row.user_id), String(row.id)])));
  return hits.filter((hit) => hit.kind !== 'session' || present.has(keyText([hit.appName, hit.userId ?? '', hit.sessionId ?? ''])));
}

export async function find(ctx: AdkStoreContext, request: FindRequest, options: ScanOptions = {}): Promise<FindResult> {
  const text = request.text.trim();
  const limit = request.limit ?? DEFAULT_FIND_LIMIT;
  if (text.length < MIN_FIND_LENGTH) return { hits: [] };
  const budget = { started: performance.now(), ms: options.budgetMs ?? FIND_BUDGET_MS, chunk: options.chunk ?? SCAN_CHUNK };
  const index = ctx.searchIndex;
  const status = index ? ctx.indexStatus() : null;
  // Titles, labels and notes are always whole in the index (triggers keep them); ids and values once the fill is done,
  // and up to its cursor while it runs, the rest scanned after it.
  const indexed =
    index === undefined
      ? []
      : await index.find(ctx.info.id, {
          text,
          limit,
          ...(request.appName === undefined ? {} : { appName: request.appName }),
          kinds: status?.filled || status?.cursor ? ['session', 'state', 'meta', 'note'] : ['meta', 'note'],
        });
  return ctx.db.read(async (qx) => {
    const hits = [...(await tierHits(ctx, qx, text, request.appName)), ...indexed];
    if (status?.filled) return { hits: distinctHits(await stillThere(ctx, qx, hits), limit) };
    const { s } = ctx;
    const sessionFilter = inApp(s.app, request.appName);
    const total = Number((await qx.all(`SELECT count(*) AS n FROM ${s.t} WHERE ${sessionFilter.sql}`, sessionFilter.params))[0]?.n ?? 0);
    const scan = await scanSessions(
      ctx,
      qx,
      {
        text,
        ...(request.appName === undefined ? {} : { appName: request.appName }),
        after: status?.cursor ?? null,
        enough: (found) => distinctHits([...hits, ...found], limit).length >= limit,
      },
      budget,
    );
    const found = distinctHits(await stillThere(ctx, qx, [...hits, ...scan.hits]), limit);
    // With an index filling, the sessions up to its cursor are searched through it (all of an app's, when asked for one).
    const before = status ? Math.min(total, status.indexed) : 0;
    const searched = Math.min(total, before + scan.searched);
    const built = status && status.total > 0 ? Math.floor((100 * status.indexed) / status.total) : undefined;
    if (searched >= total) return { hits: found };
    return {
      hits: found,
      coverage: { searched, total, unit: 'sessions', ...(built === undefined ? {} : { indexBuilt: Math.min(99, built) }) },
    };
  });
}
