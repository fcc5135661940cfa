// Which events can mention a state key, asked of the agent's database: a
// substring of the stored event text (the family's searchText column) that
// every event setting the key holds, so that a key's history or a list of
// the events that touched it reads only those events, never a whole long
// session. Callers confirm each candidate by its decoded delta.
import { contains, q, type Fragment } from './sql';
import type { Row } from '../agent-db';
import type { AdkStoreContext } from './context';

/** Rows of a SQLite events table searched per statement. */
export const MENTION_ROWS = 5000;

export interface MentionScope {
  appName: string;
  userId?: string;
  sessionId?: string;
}

export interface Mention {
  userId: string;
  sessionId: string;
  /** The event's id (unique within its session). */
  id: string;
}

/** The events table's rows in `scope`. */
export function scopeWhere(ctx: AdkStoreContext, scope: MentionScope): Fragment[] {
  const e = ctx.e;
  const where: Fragment[] = [{ sql: `${e.app} = ?`, params: [scope.appName] }];
  if (scope.userId !== undefined) where.push({ sql: `${e.user} = ?`, params: [scope.userId] });
  if (scope.sessionId !== undefined) where.push({ sql: `${e.session} = ?`, params: [scope.sessionId] });
  return where;
}

/**
 * The events in `scope` whose stored text holds `key` spelt as a JSON string
 * (or, with `prefix`, a JSON string starting with it); null when the database
 * cannot narrow (no searchText column, or a key beyond printable ASCII, which
 * Python's json.dumps escapes).
 */
export async function eventsMentioning(ctx: AdkStoreContext, scope: MentionScope, key: string, prefix = false): Promise<Mention[] | null> {
  const text = ctx.codec.layout.events.searchText;
  if (!text || !/^[\x20-\x7e]*$/.test(key)) return null;
  const needle = prefix ? JSON.stringify(key).slice(0, -1) : JSON.stringify(key);
  const e = ctx.e;
  const column = ctx.db.dialect === 'postgresql' ? `(${q(text)})::text` : q(text);
  const where = [...scopeWhere(ctx, scope), contains(ctx.db.dialect, column, needle)];
  const select = `SELECT ${e.user} AS user_id, ${e.session} AS session_id, ${e.id} AS id FROM ${e.t}`;
  const params = where.flatMap((w) => w.params);
  const found: Mention[] = [];
  const add = (rows: Row[]) => {
    for (const row of rows) found.push({ userId: String(row.user_id), sessionId: String(row.session_id), id: String(row.id) });
  };
  if (ctx.db.dialect !== 'sqlite') {
    add(await ctx.db.read((qx) => qx.all(`${select} WHERE ${where.map((w) => w.sql).join(' AND ')}`, params)));
    return found;
  }
  // better-sqlite3 runs a statement on the event loop: the file's text is searched MENTION_ROWS rows at a time.
  const sql = `${select} NOT INDEXED WHERE rowid > ? AND rowid <= ? AND ${where.map((w) => w.sql).join(' AND ')}`;
  const pageEnd = `SELECT max(r) AS m FROM (SELECT rowid AS r FROM ${e.t} NOT INDEXED WHERE rowid > ? ORDER BY rowid LIMIT ?)`;
  for (let from = -Infinity; ;) {
    const start = from;
    const end = (await ctx.db.read((qx) => qx.all(pageEnd, [start, MENTION_ROWS])))[0]?.m;
    if (end === null || end === undefined) break;
    add(await ctx.db.read((qx) => qx.all(sql, [start, Number(end), ...params])));
    from = Number(end);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return found;
}
