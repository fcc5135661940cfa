// An ADK store's writes, each one short transaction that writes what that ADK itself writes.
import {
  invalidInput,
  sessionAlreadyExists,
  sessionNotFound,
  staleSession,
  StateConflictError,
  unsupported,
} from '../../../session-service/errors';
import { completeEvent, nowSeconds, storedForm } from '../../../session-service/events';
import { hasOwn, ownEntries, setOwn } from '../../../session-service/json';
import { splitDelta, withoutTempKeys, type ScopedDelta } from '../../../session-service/scope';
import type { AppendOptions, AppendResult, CreateSessionRequest, DataScope, SessionRef, StateEdit } from '../../../session-service/store';
import type { Event, NewEvent, Session, SessionTiers, StateRecord } from '../../../session-service/types';
import type { AgentQuery } from '../agent-db';
import type { AppendWrite, CreateWrite, LockedRow, WriteContext } from '../family';
import { splitSpellings, type ValueSpellings } from '../../../session-service/value-spelling';
import { deltaKeys, writtenTiers, type TierRequest } from './state-spelling';
import type { AdkStoreContext } from './context';
import { RowDecoder, type SessionRowView, type TierRowView } from './row-decoder';
import { appRow, readableTier, sessionRow, userRow } from './rows';
import { deleteSessionRows } from './prune';
import { getAppState, getSession, getSessionSummary, getUserState } from './session-reads';

export async function createSession(ctx: AdkStoreContext, request: CreateSessionRequest): Promise<Session> {
  const writes = ctx.writes();
  if (!writes.createSession)
    throw unsupported(`${ctx.info.label} sessions are created by the agent; Statehouse does not create them here.`);
  if (request.events?.length) throw unsupported('Creating a session with events is not supported on an ADK store; append them after.');
  const sessionId = request.sessionId?.trim() || crypto.randomUUID();
  const ref = { appName: request.appName, userId: request.userId, sessionId };
  const delta = splitDelta(withoutTempKeys(request.state ?? {}));
  const create = writes.createSession.bind(writes);
  const spelled = { spellings: splitSpellings(request.spellings), keys: deltaKeys(delta) };
  await ctx.db.write((qx) => insertSessionRow(ctx, qx, create, ref, delta, nowSeconds(), spelled));
  const session = await getSession(ctx, ref);
  if (!session) throw sessionNotFound(sessionId);
  return session;
}

/**
 * What the family's create_session reads for a new session, within the
 * caller's transaction: refused when the id is taken or a shared tier it
 * would merge cannot be read.
 */
export async function createContext(
  ctx: AdkStoreContext,
  qx: AgentQuery,
  ref: SessionRef,
  now: number,
  lock = false,
  spelled: TierRequest = {},
): Promise<WriteContext> {
  if (await sessionRow(ctx, qx, ref)) throw sessionAlreadyExists(ref.sessionId);
  const app = readableTier(await appRow(ctx, qx, ref.appName, lock), `App ${ref.appName}'s state`);
  const user = readableTier(await userRow(ctx, qx, ref.appName, ref.userId, lock), `User ${ref.userId}'s state`);
  const written = writtenTiers({ app: app?.stateRaw, user: user?.stateRaw }, spelled);
  return {
    ref,
    app: app?.state ?? {},
    user: user?.state ?? {},
    session: {},
    hasAppRow: app !== null,
    hasUserRow: user !== null,
    now,
    ...(written ? { written } : {}),
  };
}

/** A new session's row, written by the family's create_session within the caller's transaction. */
export async function insertSessionRow(
  ctx: AdkStoreContext,
  qx: AgentQuery,
  create: (q: AgentQuery, write: CreateWrite) => Promise<void>,
  ref: SessionRef,
  delta: CreateWrite['delta'],
  now: number,
  spelled: TierRequest = {},
): Promise<void> {
  await create(qx, { ...(await createContext(ctx, qx, ref, now, false, spelled)), delta });
}

export async function deleteSession(ctx: AdkStoreContext, ref: SessionRef): Promise<void> {
  ctx.writes();
  await ctx.db.write((qx) => deleteSessionRows(ctx, qx, ref));
  // Its title, labels and fork link go with it; the operations history keeps what was done to it.
  await ctx.sessionLog?.apply(ctx.info.id, { remove: [ref] }, nowSeconds());
}

/** The smallest step every family's clock keeps (adk-js stores milliseconds). */
const CLOCK_STEP_SECONDS = 0.001;

/** The event, restamped one clock step after the session's update time when it would be older (another machine's clock may be ahead). */
function notBefore(event: Event, stored: number): Event {
  if (event.timestamp > stored) return event;
  // On whole milliseconds, as a millisecond clock would read it back.
  return { ...event, timestamp: Math.round((stored + CLOCK_STEP_SECONDS) * 1000) / 1000 };
}

/**
 * The session row and the tier rows an append reads, the rows the family's
 * append locks taken first, FOR UPDATE, in that family's order (see
 * FamilyWrites.lockedRows); the others read without a lock.
 */
async function lockedRows(ctx: AdkStoreContext, qx: AgentQuery, ref: SessionRef, order: LockedRow[]) {
  const rows: { session?: SessionRowView | null; app?: TierRowView | null; user?: TierRowView | null } = {};
  for (const row of order) {
    if (row === 'session') rows.session = await sessionRow(ctx, qx, ref, true);
    else if (row === 'app') rows.app = await appRow(ctx, qx, ref.appName, true);
    else rows.user = await userRow(ctx, qx, ref.appName, ref.userId, true);
  }
  return {
    session: rows.session === undefined ? await sessionRow(ctx, qx, ref) : rows.session,
    app: rows.app === undefined ? await appRow(ctx, qx, ref.appName) : rows.app,
    user: rows.user === undefined ? await userRow(ctx, qx, ref.appName, ref.userId) : rows.user,
  };
}

/** What an append writes as spelled: the stored blobs' and the request's texts (state-spelling.ts). */
function spelledAppend(
  rows: { session: SessionRowView | null; app: TierRowView | null; user: TierRowView | null },
  delta: ScopedDelta,
  spellings: ValueSpellings | undefined,
): Pick<AppendWrite, 'written' | 'deltaSpellings'> {
  const written = writtenTiers(
    { app: rows.app?.stateRaw, user: rows.user?.stateRaw, session: rows.session?.stateRaw },
    { spellings: splitSpellings(spellings), keys: deltaKeys(delta) },
  );
  return { ...(written ? { written } : {}), ...(spellings ? { deltaSpellings: spellings } : {}) };
}

export async function append(
  ctx: AdkStoreContext,
  ref: SessionRef,
  newEvent: NewEvent,
  options: AppendOptions = {},
): Promise<AppendResult> {
  const writes = ctx.writes();
  const event = completeEvent(newEvent);
  const stored = storedForm(event);
  if (event.partial) {
    const session = await getSessionSummary(ctx, ref);
    if (!session) throw sessionNotFound(ref.sessionId);
    return { event, revision: session.revision };
  }
  const delta = splitDelta(stored.actions.stateDelta);
  const { revision, written } = await ctx.db.write(async (qx) => {
    const rows = await lockedRows(ctx, qx, ref, writes.lockedRows(delta));
    if (!rows.session) throw sessionNotFound(ref.sessionId);
    if (options.expectedRevision !== undefined && ctx.codec.isStale(RowDecoder.revision(rows.session.update), options.expectedRevision)) {
      throw staleSession();
    }
    // A tier the delta merges into must be readable: what is not understood is never overwritten.
    if (Object.keys(delta.app).length > 0) readableTier(rows.app, `App ${ref.appName}'s state`);
    if (Object.keys(delta.user).length > 0) readableTier(rows.user, `User ${ref.userId}'s state`);
    // ADK sets the session's update time to the event's: an event the console stamps is never older than what is stored.
    const written = newEvent.timestamp === undefined ? notBefore(stored, rows.session.update) : stored;
    await writes.append(qx, {
      ref,
      app: rows.app?.state ?? {},
      user: rows.user?.state ?? {},
      session: rows.session.state,
      hasAppRow: rows.app !== null,
      hasUserRow: rows.user !== null,
      now: written.timestamp,
      event: written,
      delta,
      ...spelledAppend(rows, delta, options.spellings),
    });
    const after = await sessionRow(ctx, qx, ref);
    return { revision: RowDecoder.revision(after?.update ?? 0), written };
  });
  if (options.actor && options.actor !== written.author && ctx.audit) {
    await ctx.audit.record(
      Object.entries(written.actions.stateDelta).map(([key]) => ({
        storeId: ctx.info.id,
        kind: 'append' as const,
        appName: ref.appName,
        scope: 'session' as const,
        userId: ref.userId,
        sessionId: ref.sessionId,
        key,
        oldValue: undefined,
        newValue: written.actions.stateDelta[key],
        actor: options.actor ?? written.author,
        reason: null,
        eventId: written.id,
        time: written.timestamp,
      })),
    );
  }
  return { event: written, revision };
}

export async function editState(ctx: AdkStoreContext, edit: StateEdit): Promise<SessionTiers['app']> {
  const writes = ctx.writes();
  if (edit.scope === 'user' && !edit.userId) throw invalidInput('userId is required for a user-state edit.');
  const now = nowSeconds();
  const changed = await ctx.db.write(async (qx) => {
    const row = readableTier(
      edit.scope === 'app' ? await appRow(ctx, qx, edit.appName, true) : await userRow(ctx, qx, edit.appName, edit.userId ?? '', true),
      `The ${edit.scope} state`,
    );
    const before = row?.state ?? {};
    // What the editor saw, compared with what the locked row holds: a mismatch writes nothing.
    const expected = Object.entries(edit.expected ?? {});
    const unchanged = expected.find(([key]) => !Object.hasOwn(edit.changes, key));
    if (unchanged) throw invalidInput(`expected: "${unchanged[0]}" is not one of the changed keys.`);
    const conflicts = expected.flatMap(([key, seen]) => {
      const current = hasOwn(before, key) ? before[key] : undefined;
      const same = seen.present ? current !== undefined && JSON.stringify(current) === JSON.stringify(seen.value) : current === undefined;
      return same ? [] : [{ key, current }];
    });
    if (conflicts.length > 0) throw new StateConflictError(conflicts);
    const next: StateRecord = {};
    for (const [key, value] of ownEntries(before)) setOwn(next, key, value);
    for (const [key, value] of Object.entries(edit.changes)) {
      if (value === undefined) delete next[key];
      else setOwn(next, key, value);
    }
    const written = writtenTiers(
      { [edit.scope]: row?.stateRaw },
      { spellings: { [edit.scope]: edit.spellings }, keys: { [edit.scope]: Object.keys(edit.changes) } },
    );
    await writes.editTier(qx, {
      appName: edit.appName,
      userId: edit.userId,
      scope: edit.scope,
      ...(written ? { written } : {}),
      edited: Object.keys(edit.changes),
      app: edit.scope === 'app' ? before : {},
      user: edit.scope === 'user' ? before : {},
      hasAppRow: edit.scope === 'app' && row !== null,
      hasUserRow: edit.scope === 'user' && row !== null,
      now,
      next,
    });
    return Object.keys(edit.changes).map((key) => ({
      key,
      oldValue: hasOwn(before, key) ? before[key] : undefined,
      newValue: edit.changes[key],
    }));
  });
  await ctx.audit?.record(
    changed.map((change) => ({
      storeId: ctx.info.id,
      kind: 'edit' as const,
      appName: edit.appName,
      scope: edit.scope,
      userId: edit.userId ?? '',
      sessionId: '',
      key: change.key,
      oldValue: change.oldValue,
      newValue: change.newValue,
      actor: edit.actor,
      reason: edit.reason,
      eventId: null,
      time: now,
    })),
  );
  return edit.scope === 'app' ? getAppState(ctx, edit.appName) : getUserState(ctx, edit.appName, edit.userId ?? '');
}

export async function clearData(_ctx: AdkStoreContext, _scope: DataScope): Promise<void> {
  throw unsupported('Clearing data is for Statehouse’s own store; an ADK store’s data belongs to its agent.');
}

/** The SessionStore writes of this file, for the facade (store.ts). */
export const storeWrites = { createSession, append, deleteSession, editState, clearData };
