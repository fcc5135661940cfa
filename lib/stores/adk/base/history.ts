// An ADK store's state history: per-key changes from replayed events and Statehouse's own edits (its audit).
import { invalidInput, sessionNotFound } from '../../../session-service/errors';
import { pageBounds } from '../../../session-service/paging';
import { prefixedKey } from '../../../session-service/scope';
import type { KeyHistoryRequest, PageRequest, SessionRef } from '../../../session-service/store';
import { hasOwn, setOwn } from '../../../session-service/json';
import type { Event, JsonValue, Page, StateChange, StateRecord } from '../../../session-service/types';
import type { AuditEntry } from './audit';
import type { AdkStoreContext } from './context';
import { replayInList, sessionRow } from './rows';
import { contains, q, type Fragment } from './sql';
import { timelinesOf } from './timeline';

export async function listEventChanges(ctx: AdkStoreContext, ref: SessionRef, seqs: number[]): Promise<StateChange[]> {
  if (seqs.length > 1000) throw invalidInput('At most 1000 sequence numbers.');
  // The session's own row first: absent is NOT_FOUND, unreadable is UNREADABLE, as a whole replay answers.
  if (!(await ctx.db.read((qx) => sessionRow(ctx, qx, ref)))) throw sessionNotFound(ref.sessionId);
  // Only the asked events are replayed, each from the checkpoint before it: a page of a long session stays a page's work.
  const changes = await timelinesOf(ctx).changes(ctx, ref, seqs);
  return changes;
}

export async function getKeyHistory(ctx: AdkStoreContext, request: KeyHistoryRequest): Promise<Page<StateChange>> {
  const { limit, offset } = pageBounds(request);
  if (request.scope !== 'app' && !request.userId) throw invalidInput('userId is required for user and session scope.');
  if (request.scope === 'session' && !request.sessionId) throw invalidInput('sessionId is required for session scope.');
  const refs = await sessionsTouching(
    ctx,
    request.appName,
    request.scope === 'app' ? undefined : request.userId,
    prefixedKey(request.scope, request.key),
  );
  const wanted = request.scope === 'session' ? refs.filter((ref) => ref.sessionId === request.sessionId) : refs;
  const changes: StateChange[] = [];
  for (const ref of wanted) {
    const loaded = await replayInList(ctx, ref);
    for (const item of loaded?.replay.events ?? []) {
      for (const change of item.changes) if (change.scope === request.scope && change.key === request.key) changes.push(change);
    }
  }
  if (request.scope !== 'session') changes.push(...(await edits(ctx, request.appName, [request.scope], request.userId, request.key)));
  changes.sort((x, y) => y.time - x.time || y.id - x.id);
  return { items: changes.slice(offset, offset + limit), total: changes.length };
}

export async function getUserHistory(
  ctx: AdkStoreContext,
  appName: string,
  userId: string,
  page: PageRequest & { since?: number } = {},
): Promise<Page<StateChange>> {
  const { limit, offset } = pageBounds(page);
  const s = ctx.s;
  const rows = await ctx.db.read((qx) =>
    qx.all(`SELECT ${s.id} AS id FROM ${s.t} WHERE ${s.app} = ? AND ${s.user} = ?`, [appName, userId]),
  );
  // Each session's replay knows only its own events; the user's tier is shared by all of them, so its
  // changes are walked again in time order across the sessions (and Statehouse's edits of it), each old
  // value what the previous change left, each new value the family's merge of the event's delta into it.
  const steps: { time: number; order: [string, number]; event?: Event; change: StateChange }[] = [];
  for (const row of rows) {
    const sessionId = String(row.id);
    const loaded = await replayInList(ctx, { appName, userId, sessionId });
    for (const item of loaded?.replay.events ?? []) {
      for (const change of item.changes) {
        if (change.scope === 'user') steps.push({ time: change.time, order: [sessionId, change.id], event: item.event, change });
      }
    }
  }
  for (const change of await edits(ctx, appName, ['user'], userId)) steps.push({ time: change.time, order: ['', change.id], change });
  steps.sort((x, y) => x.time - y.time || compareText(x.order[0], y.order[0]) || x.order[1] - y.order[1]);
  const current = new Map<string, JsonValue | undefined>();
  const changes: StateChange[] = [];
  for (const { event, change } of steps) {
    let walked = change;
    if (event) {
      const oldValue = current.has(change.key) ? current.get(change.key) : change.oldValue;
      const tier: StateRecord = {};
      if (oldValue !== undefined) setOwn(tier, change.key, oldValue);
      const delta: StateRecord = {};
      setOwn(delta, change.key, event.actions.stateDelta[prefixedKey('user', change.key)] ?? null);
      const after = ctx.codec.applyDelta(tier, delta);
      walked = { ...change, oldValue, newValue: hasOwn(after, change.key) ? after[change.key] : undefined };
    }
    current.set(change.key, walked.newValue);
    if (page.since === undefined || walked.time > page.since) changes.push(walked);
  }
  changes.sort((x, y) => y.time - x.time || y.id - x.id);
  return { items: changes.slice(offset, offset + limit), total: changes.length };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Statehouse's own edits of this store's app/user tiers (from its audit), as history entries. */
/** Statehouse's edits as history entries: ids negative, apart from the replayed changes' synthetic ids. */
function editChange(entry: AuditEntry & { id: number }): StateChange {
  return {
    id: -entry.id,
    appName: entry.appName,
    scope: entry.scope,
    ownerUserId: entry.scope === 'app' ? '' : entry.userId,
    ownerSessionId: '',
    key: entry.key,
    oldValue: entry.oldValue,
    newValue: entry.newValue,
    actor: entry.actor,
    reason: entry.reason,
    time: entry.time,
    sourceUserId: null,
    sourceSessionId: null,
    eventId: null,
    eventSeq: null,
  };
}

export async function edits(
  ctx: AdkStoreContext,
  appName: string,
  scopes: ('app' | 'user')[],
  userId: string | undefined,
  key?: string,
): Promise<StateChange[]> {
  if (!ctx.audit) return [];
  const entries = await ctx.audit.edits({ storeId: ctx.info.id, appName, scopes, userId, key });
  return entries.map(editChange);
}

/**
 * Sessions with an event whose data mentions this prefixed key, narrowed in
 * SQL by a substring of the stored event data (an ASCII key only: Python's
 * json.dumps escapes the rest), then confirmed by replay.
 */
async function sessionsTouching(
  ctx: AdkStoreContext,
  appName: string,
  userId: string | undefined,
  prefixed: string,
): Promise<SessionRef[]> {
  const e = ctx.e;
  const where: Fragment[] = [{ sql: `${e.app} = ?`, params: [appName] }];
  if (userId !== undefined) where.push({ sql: `${e.user} = ?`, params: [userId] });
  const text = ctx.codec.layout.events.searchText;
  if (text && /^[\x20-\x7e]*$/.test(prefixed)) {
    const column = ctx.db.dialect === 'postgresql' ? `(${q(text)})::text` : q(text);
    where.push(contains(ctx.db.dialect, column, JSON.stringify(prefixed)));
  }
  const rows = await ctx.db.read((qx) =>
    qx.all(
      `SELECT DISTINCT ${e.user} AS user_id, ${e.session} AS session_id FROM ${e.t} WHERE ${where.map((w) => w.sql).join(' AND ')}`,
      where.flatMap((w) => w.params),
    ),
  );
  return rows.map((row) => ({ appName, userId: String(row.user_id), sessionId: String(row.session_id) }));
}

/** The SessionStore history reads of this file, for the facade (store.ts). */
export const historyReads = { listEventChanges, getKeyHistory, getUserHistory };
