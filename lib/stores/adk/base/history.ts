// An ADK store's state history: per-key changes from replayed events and Statehouse's own edits (its audit).
import { invalidInput, isSessionServiceError, sessionNotFound } from '../../../session-service/errors';
import { pageBounds } from '../../../session-service/paging';
import { prefixedKey } from '../../../session-service/scope';
import type { KeyHistoryRequest, PageRequest, SessionRef } from '../../../session-service/store';
import { hasOwn, setOwn } from '../../../session-service/json';
import type { JsonValue, Page, Scope, StateChange, StateRecord } from '../../../session-service/types';
import type { AuditEntry } from './audit';
import type { AdkStoreContext } from './context';
import { sessionRow } from './rows';
import { eventsMentioning, scopeWhere, type MentionScope } from './mentions';
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
  const prefixed = prefixedKey(request.scope, request.key);
  const userId = request.scope === 'app' ? undefined : request.userId;
  const scope = { appName: request.appName, ...(userId !== undefined ? { userId } : {}) };
  const refs = await sessionsMentioning(ctx, request.scope === 'session' ? { ...scope, sessionId: request.sessionId } : scope, prefixed);
  const changes: StateChange[] = [];
  for (const { ref, narrow } of refs) {
    const found = await keyChangesInList(ctx, ref, (scope, key) => scope === request.scope && key === request.key, narrow);
    for (const { change } of found) changes.push(change);
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
  // Each session's timeline knows only its own events; the user's tier is shared by all of them, so its
  // changes are walked again in time order across the sessions (and Statehouse's edits of it), each old
  // value what the previous change left, each new value the family's merge of the event's delta into it.
  const steps: { time: number; order: [string, number]; delta?: JsonValue; change: StateChange }[] = [];
  for (const { ref, narrow } of await sessionsMentioning(ctx, { appName, userId }, 'user:', true)) {
    for (const { change, delta } of await keyChangesInList(ctx, ref, (scope) => scope === 'user', narrow)) {
      steps.push({ time: change.time, order: [ref.sessionId, change.id], delta, change });
    }
  }
  for (const change of await edits(ctx, appName, ['user'], userId)) steps.push({ time: change.time, order: ['', change.id], change });
  steps.sort((x, y) => x.time - y.time || compareText(x.order[0], y.order[0]) || x.order[1] - y.order[1]);
  const current = new Map<string, JsonValue | undefined>();
  const changes: StateChange[] = [];
  for (const { delta: value, change } of steps) {
    let walked = change;
    if (value !== undefined) {
      const oldValue = current.has(change.key) ? current.get(change.key) : change.oldValue;
      const tier: StateRecord = {};
      if (oldValue !== undefined) setOwn(tier, change.key, oldValue);
      const delta: StateRecord = {};
      setOwn(delta, change.key, value);
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

/** A session and, when the database could narrow, the ids of its events that can set the key. */
interface MentioningSession {
  ref: SessionRef;
  narrow: Set<string> | null;
}

/**
 * The sessions in `scope` with an event that can set this prefixed key (or, with `prefix`, a key starting
 * with it), each with those events' ids; without narrowing (eventsMentioning: null), every session with events.
 */
async function sessionsMentioning(ctx: AdkStoreContext, scope: MentionScope, key: string, prefix = false): Promise<MentioningSession[]> {
  const mentions = await eventsMentioning(ctx, scope, key, prefix);
  const sessions = new Map<string, MentioningSession>();
  const ref = (userId: string, sessionId: string) => ({ appName: scope.appName, userId, sessionId });
  if (mentions) {
    for (const { userId, sessionId, id } of mentions) {
      const at = JSON.stringify([userId, sessionId]);
      const found = sessions.get(at) ?? { ref: ref(userId, sessionId), narrow: new Set<string>() };
      found.narrow?.add(id);
      sessions.set(at, found);
    }
    return [...sessions.values()];
  }
  const e = ctx.e;
  const where = scopeWhere(ctx, scope);
  const rows = await ctx.db.read((qx) =>
    qx.all(
      `SELECT DISTINCT ${e.user} AS user_id, ${e.session} AS session_id FROM ${e.t} WHERE ${where.map((w) => w.sql).join(' AND ')}`,
      where.flatMap((w) => w.params),
    ),
  );
  return rows.map((row) => ({ ref: ref(String(row.user_id), String(row.session_id)), narrow: null }));
}

/** A session's changes for a history over many sessions: one whose events cannot be read is left out, not the history. */
async function keyChangesInList(
  ctx: AdkStoreContext,
  ref: SessionRef,
  wanted: (scope: Scope, key: string) => boolean,
  narrow: Set<string> | null,
): Promise<{ change: StateChange; delta: JsonValue }[]> {
  try {
    return await timelinesOf(ctx).keyChanges(ctx, ref, wanted, narrow);
  } catch (error) {
    if (isSessionServiceError(error) && error.code === 'UNREADABLE') return [];
    throw error;
  }
}

/** The SessionStore history reads of this file, for the facade (store.ts). */
export const historyReads = { listEventChanges, getKeyHistory, getUserHistory };
