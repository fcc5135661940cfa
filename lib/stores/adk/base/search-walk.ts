// How the search follower reads an agent's store without stalling anyone.
// better-sqlite3 answers synchronously, and a chain of awaits that resolve at
// once never lets a timer or a request in: the follower's work is cut into
// slices of a few milliseconds with a turn of the event loop between them.
// On SQLite the sessions are walked in the table's own order (rowid: a seek
// per chunk, whatever the order of the family's primary key), a chunk per
// short read transaction, so no read holds the agent's file for long.
import type { Row } from '../agent-db';
import type { AdkStoreContext } from './context';
import { keyText, type SessionKey } from './search-index';

/** How long the follower works before it lets the event loop turn (ms). */
export const SLICE_MS = 8;
/** Sessions a read of a walk looks at: counted and filtered in the database, only the recently updated ones answered. */
const WALK_CHUNK = 2_000;
/** Keys read per statement when the walk needs every session's (to find the ones deleted). */
const KEY_CHUNK = 500;
/** Before any rowid. */
export const FIRST_ROWID = -9007199254740991;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Work cut into slices: `next()` yields to the event loop once the current slice has run its length. */
export class Slices {
  private started = performance.now();

  constructor(private readonly ms: number = SLICE_MS) {}

  async next(): Promise<void> {
    if (performance.now() - this.started < this.ms) return;
    await turn();
    this.started = performance.now();
  }

  /** Yields whatever the slice's length so far. */
  async yield(): Promise<void> {
    await turn();
    this.started = performance.now();
  }
}

export function keyOf(row: Row): SessionKey {
  return [String(row.app), String(row.user_id), String(row.id)];
}

/** What one walk over the sessions saw. */
export interface Walked {
  /** How many sessions there are. */
  count: number;
  /** The newest update time (seconds), or 0 with no sessions. */
  newest: number;
  /** The sessions updated at or after `since`. */
  recent: SessionKey[];
}

/**
 * Every session of a SQLite store in rowid order, a chunk per short read and
 * a slice, counted and tested in the database: how many, the newest update
 * time, and those updated at or after `since` (seconds).
 */
export async function walkSessions(ctx: AdkStoreContext, since: number, slices: Slices): Promise<Walked> {
  const { s } = ctx;
  const from = Number.isFinite(since) ? ctx.codec.time.encode(Math.max(0, since), 'sessionUpdate') : null;
  const walked: Walked = { count: 0, newest: 0, recent: [] };
  for (let after = FIRST_ROWID; ;) {
    const { chunk, recent } = await ctx.db.read(async (qx) => {
      const [chunk] = await qx.all(
        `SELECT count(*) AS n, max(r) AS last, max(u) AS newest
         FROM (SELECT rowid AS r, ${s.update} AS u FROM ${s.t} WHERE rowid > ? ORDER BY rowid LIMIT ?)`,
        [after, WALK_CHUNK],
      );
      const last = Number(chunk?.last ?? after);
      const recent =
        from === null || !chunk || Number(chunk.n) === 0
          ? []
          : await qx.all(
              `SELECT ${s.app} AS app, ${s.user} AS user_id, ${s.id} AS id FROM ${s.t} WHERE rowid > ? AND rowid <= ? AND ${s.update} >= ?`,
              [after, last, from],
            );
      return { chunk: { n: Number(chunk?.n ?? 0), last, newest: chunk?.newest }, recent };
    });
    walked.count += chunk.n;
    if (chunk.n > 0) walked.newest = Math.max(walked.newest, ctx.seconds(chunk.newest, 'sessionUpdate'));
    walked.recent.push(...recent.map(keyOf));
    if (chunk.n < WALK_CHUNK) return walked;
    after = chunk.last;
    await slices.yield();
  }
}

/** Every session's key of a SQLite store, in rowid order, a chunk per read and a slice (to find the sessions deleted). */
export async function sessionKeys(ctx: AdkStoreContext, slices: Slices): Promise<Set<string>> {
  const { s } = ctx;
  const present = new Set<string>();
  for (let after = FIRST_ROWID; ;) {
    const rows = await ctx.db.read((qx) =>
      qx.all(`SELECT rowid AS r, ${s.app} AS app, ${s.user} AS user_id, ${s.id} AS id FROM ${s.t} WHERE rowid > ? ORDER BY rowid LIMIT ?`, [
        after,
        KEY_CHUNK,
      ]),
    );
    for (const row of rows) present.add(keyText(keyOf(row)));
    const last = rows[rows.length - 1];
    if (!last || rows.length < KEY_CHUNK) return present;
    after = Number(last.r);
    await slices.yield();
  }
}

/** Whether the sessions and events tables have rowids to walk by (a table made WITHOUT ROWID has none). */
export async function hasRowids(ctx: AdkStoreContext): Promise<boolean> {
  try {
    await ctx.db.read(async (qx) => {
      await qx.all(`SELECT rowid FROM ${ctx.s.t} LIMIT 0`);
      await qx.all(`SELECT rowid FROM ${ctx.e.t} LIMIT 0`);
    });
    return true;
  } catch (error) {
    if (error instanceof Error && /no such column: rowid/i.test(error.message)) return false;
    throw error;
  }
}

/** The newest event's rowid, 0 with none (a seek): where the follower starts looking for events added since. */
export async function lastEventRowid(ctx: AdkStoreContext): Promise<number> {
  const rows = await ctx.db.read((qx) => qx.all(`SELECT max(rowid) AS r FROM ${ctx.e.t}`));
  return Number(rows[0]?.r ?? 0);
}

/**
 * The sessions with events after rowid `after` (appended, or placed between
 * earlier ones: a session's update time alone does not say, an agent's clock
 * may be behind), a chunk per read and a slice, and the last rowid read.
 */
export async function sessionsWithNewEvents(
  ctx: AdkStoreContext,
  after: number,
  slices: Slices,
): Promise<{ sessions: SessionKey[]; last: number }> {
  const { e } = ctx;
  const seen = new Map<string, SessionKey>();
  for (let from = after; ;) {
    const { n, last, keys } = await ctx.db.read(async (qx) => {
      const [chunk] = await qx.all(
        `SELECT count(*) AS n, max(r) AS last FROM (SELECT rowid AS r FROM ${e.t} WHERE rowid > ? ORDER BY rowid LIMIT ?)`,
        [from, WALK_CHUNK],
      );
      const n = Number(chunk?.n ?? 0);
      const last = n > 0 ? Number(chunk?.last) : from;
      const keys =
        n === 0
          ? []
          : await qx.all(
              `SELECT DISTINCT ${e.app} AS app, ${e.user} AS user_id, ${e.session} AS id FROM ${e.t} WHERE rowid > ? AND rowid <= ?`,
              [from, last],
            );
      return { n, last, keys };
    });
    for (const row of keys) {
      const key = keyOf(row);
      seen.set(keyText(key), key);
    }
    if (n < WALK_CHUNK) return { sessions: [...seen.values()], last };
    from = last;
    await slices.yield();
  }
}
