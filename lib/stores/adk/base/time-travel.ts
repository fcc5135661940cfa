// An ADK store's time travel: the tiers as they were right after one event,
// from the session's timeline (timeline.ts: checkpoints and pages, never the
// whole session at once) over the tiers as they are now.
import { hasOwn } from '../../../session-service/json';
import { distinctText, plainOf } from '../../../session-service/json-spelling';
import { prefixedKey } from '../../../session-service/scope';
import { jsonEqual } from '../../../session-service/state-diff';
import type { SessionRef } from '../../../session-service/store';
import type { JsonValue, Scope, SessionTiers, StateRecord } from '../../../session-service/types';
import type { Row } from '../agent-db';
import type { AdkStoreContext } from './context';
import type { Tiers } from './replay';
import { sessionWithTiers, sortedEntries } from './rows';
import { blobSpellings } from './state-spelling';
import { tiersAt, timelinesOf, type Checkpoint } from './timeline';

const SCOPES: Scope[] = ['app', 'user', 'session'];

export async function getStateAsOf(ctx: AdkStoreContext, ref: SessionRef, seq: number): Promise<SessionTiers | null> {
  if (!Number.isInteger(seq) || seq < 0) return null;
  const rows = await sessionWithTiers(ctx, ref);
  const current: Tiers | null = rows ? { app: rows.app?.state ?? {}, user: rows.user?.state ?? {}, session: rows.row.state } : null;
  if (!current) return null;
  const at = await timelinesOf(ctx).stateAfter(ctx, ref, seq);
  if (!at) return null;
  const tiers = tiersAt(at.state, current, at.head.touched);
  const written = await writtenAsOf(
    ctx,
    ref,
    { app: rows?.app?.stateRaw, user: rows?.user?.stateRaw, session: rows?.row.stateRaw },
    at,
    tiers,
  );
  const entries = (scope: Scope, record: StateRecord) =>
    sortedEntries(record, 0, (key) => at.state.sources.get(prefixedKey(scope, key)) ?? null, written[scope]).map((entry) => ({
      ...entry,
      updateTime: entry.lastChange?.time ?? 0,
    }));
  return { app: entries('app', tiers.app), user: entries('user', tiers.user), session: entries('session', tiers.session) };
}

/** Whether a parsed value can have been spelled otherwise than JSON.stringify spells it: a whole number (`2.0`), an integer-like key. */
export function maySpellApart(value: JsonValue | undefined): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  if (Array.isArray(value)) return value.some(maySpellApart);
  if (value === null || typeof value !== 'object') return false;
  return Object.keys(value).some((key) => /^\d+$/.test(key) || maySpellApart(value[key]));
}

/** Event ids per read of their rows. */
const ID_BATCH = 500;

/**
 * StateEntry.written of the tiers as of an event: a key no event of the
 * session set as its blob spells it now, a key an event set as that event's
 * stored delta spells it (read only for values that can differ, from the
 * few events that set them last), and only where the text still reads as
 * the value replayed (a merge may have changed it since).
 */
async function writtenAsOf(
  ctx: AdkStoreContext,
  ref: SessionRef,
  raw: Record<Scope, unknown>,
  at: { state: Checkpoint; head: Checkpoint },
  tiers: Tiers,
): Promise<Record<Scope, Map<string, string>>> {
  const written: Record<Scope, Map<string, string>> = { app: new Map(), user: new Map(), session: new Map() };
  const wanted = new Map<string, { scope: Scope; key: string }[]>();
  for (const scope of SCOPES) {
    for (const [key, text] of blobSpellings(raw[scope], tiers[scope])) if (!at.head.touched[scope].has(key)) written[scope].set(key, text);
    if (!ctx.codec.deltaSpelling) continue;
    for (const key of Object.keys(at.state.overlay[scope])) {
      const eventId = at.state.sources.get(prefixedKey(scope, key))?.eventId;
      if (!eventId || !hasOwn(tiers[scope], key) || !maySpellApart(tiers[scope][key])) continue;
      wanted.set(eventId, [...(wanted.get(eventId) ?? []), { scope, key }]);
    }
  }
  const spelling = ctx.codec.deltaSpelling?.bind(ctx.codec);
  if (!spelling || wanted.size === 0) return written;
  for (const row of await eventRowsByIds(ctx, ref, [...wanted.keys()])) {
    const delta = spelling(row);
    if (delta?.kind !== 'object') continue;
    for (const { scope, key } of wanted.get(String(row[ctx.codec.layout.events.id])) ?? []) {
      const spelled = delta.entries.get(prefixedKey(scope, key));
      const text = spelled ? distinctText(spelled) : undefined;
      if (spelled && text !== undefined && jsonEqual(plainOf(spelled), tiers[scope][key] ?? null)) written[scope].set(key, text);
    }
  }
  return written;
}

/** The session's event rows with these ids (any order), ID_BATCH ids a statement. */
export async function eventRowsByIds(ctx: AdkStoreContext, ref: SessionRef, ids: readonly string[]): Promise<Row[]> {
  const e = ctx.e;
  const rows: Row[] = [];
  for (let from = 0; from < ids.length; from += ID_BATCH) {
    const batch = ids.slice(from, from + ID_BATCH);
    const read = await ctx.db.read((qx) =>
      qx.all(
        `SELECT ${e.cols} FROM ${e.t} WHERE ${e.app} = ? AND ${e.user} = ? AND ${e.session} = ? AND ${e.id} IN (${batch.map(() => '?').join(', ')})`,
        [ref.appName, ref.userId, ref.sessionId, ...batch],
      ),
    );
    rows.push(...read);
  }
  return rows;
}
