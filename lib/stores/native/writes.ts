// The native store's writes: each one transaction (create, append, delete, clear, edit), appends guarded by the revision.
import { empty, sqltag as sql } from '@prisma/client/runtime/client';
import { toNumber } from './dialect';
import { isUniqueViolation } from '../../db/adapter-errors';
import { deleteMeta } from './session-meta';
import {
  eventIdTaken,
  invalidInput,
  isSessionServiceError,
  sessionAlreadyExists,
  sessionNotFound,
  staleSession,
  StateConflictError,
} from '../../session-service/errors';
import { completeEvent, newId, nowSeconds, storedForm } from '../../session-service/events';
import { decodeJson, ownEntries } from '../../session-service/json';
import { jsonEqual } from '../../session-service/state-diff';
import { applyToSession } from '../../session-service/append';
import { splitDelta, type ScopedDelta } from '../../session-service/scope';
import { encodeEvent, splitSpellings, type TierSpellings, type ValueSpellings } from '../../session-service/value-spelling';
import type { AppendOptions, AppendResult, CreateSessionRequest, DataScope, SessionRef, StateEdit } from '../../session-service/store';
import { mergedStateSql, stateOfRows, type TierRow } from './session-snapshot';
import type { SqlExecutor } from '../../db/sql';
import { writeTier, type TierChanges, type TierOwner } from './tier-writes';
import type { ChangeSource, Event, JsonValue, NewEvent, Session, StateEntry, StateRecord } from '../../session-service/types';
import { type StoreContext } from './context';
import { MAX_STORED_INTEGER } from '../../validation/limits';
import { appendInOneCall, createInOneCall } from './pg-writes';
import { decodeEvent } from './rows';
import { appEntries, findSession, getAppState, getSessionSummary, getUserState, userEntries } from './session-reads';

function tierChanges(record: StateRecord): TierChanges {
  return ownEntries(record);
}

/** An event ready to store: its stored form (no temp: keys), that as JSON text, and its delta (and its spelling) by tier. */
interface PendingEvent {
  event: Event;
  stored: Event;
  data: string;
  split: ScopedDelta;
  spelled: TierSpellings;
}

function pendingEvent(event: Event, spellings?: ValueSpellings): PendingEvent {
  const stored = storedForm(event);
  return {
    event,
    stored,
    data: encodeEvent(stored, spellings),
    split: splitDelta(stored.actions.stateDelta),
    spelled: splitSpellings(spellings),
  };
}

export async function createSession(ctx: StoreContext, request: CreateSessionRequest, options: AppendOptions = {}): Promise<Session> {
  const sessionId = request.sessionId?.trim() || newId();
  const now = nowSeconds();
  const split = splitDelta(request.state ?? {});
  const spelled = splitSpellings(request.spellings);
  // Every event is completed (and so checked) before anything is written.
  const pending = (request.events ?? [])
    .map((event, index) => ({ event: completeEvent(event), spellings: request.eventSpellings?.[index] }))
    .filter(({ event }) => !event.partial)
    .map(({ event, spellings }) => pendingEvent(event, spellings));
  const ids = new Set<string>();
  for (const { stored } of pending) {
    if (ids.has(stored.id)) throw invalidInput(`events: id ${stored.id} appears twice; event ids are unique in a session.`);
    ids.add(stored.id);
  }
  const ref: SessionRef = { appName: request.appName, userId: request.userId, sessionId };
  if (ctx.dialect === 'postgresql' && pending.length === 0) {
    // One round trip (pg-writes.ts); with initial events, the transaction below.
    const state = await createInOneCall(ctx.client, ref, now, split, spelled);
    if (!state) throw sessionAlreadyExists(sessionId);
    return { id: sessionId, appName: request.appName, userId: request.userId, state, events: [], lastUpdateTime: now, revision: 0 };
  }
  const { state, revisions } = await ctx.write(async (tx) => {
    const inserted = await tx.$queryRaw<{ pk: unknown }[]>(
      sql`INSERT INTO sessions (app_name, user_id, id, revision, last_seq, create_time, update_time)
          VALUES (${request.appName}, ${request.userId}, ${sessionId}, 0, 0, ${now}, ${now})
          ON CONFLICT DO NOTHING RETURNING pk`,
    );
    const pk = inserted[0]?.pk;
    if (pk === undefined) throw sessionAlreadyExists(sessionId);
    const owner = { ...ref, sessionPk: toNumber(pk) };
    const cause: ChangeSource = {
      actor: 'session:create',
      reason: null,
      time: now,
      sourceUserId: request.userId,
      sourceSessionId: sessionId,
      eventId: null,
      eventSeq: null,
    };
    await writeScoped(ctx, tx, owner, split, cause, spelled);
    const state = await mergedState(ctx, tx, request.appName, request.userId, owner.sessionPk);
    // The initial events go through the same path as appendEvent, in this transaction.
    const revisions: number[] = [];
    let revision = 0;
    for (const event of pending) {
      revision = await insertEvent(ctx, tx, ref, revision, event, options);
      revisions.push(revision);
    }
    return { state, revisions };
  });
  const session: Session = {
    id: sessionId,
    appName: request.appName,
    userId: request.userId,
    state,
    events: [],
    lastUpdateTime: now,
    revision: 0,
  };
  pending.forEach(({ event, stored }, i) => applyToSession(session, event, stored, revisions[i] ?? session.revision));
  return session;
}

export async function writeScoped(
  ctx: StoreContext,
  tx: SqlExecutor,
  owner: Omit<TierOwner, 'scope'>,
  split: ScopedDelta,
  cause: ChangeSource,
  spelled: TierSpellings = {},
): Promise<void> {
  // Fixed order (app, user, session) so concurrent writers lock in the same order.
  await writeTier(tx, ctx.dialect, { ...owner, scope: 'app' }, tierChanges(split.app), cause, { spellings: spelled.app });
  await writeTier(tx, ctx.dialect, { ...owner, scope: 'user' }, tierChanges(split.user), cause, { spellings: spelled.user });
  await writeTier(tx, ctx.dialect, { ...owner, scope: 'session' }, tierChanges(split.session), cause, { spellings: spelled.session });
}

export async function mergedState(
  ctx: StoreContext,
  tx: SqlExecutor,
  appName: string,
  userId: string,
  sessionPk: number,
): Promise<StateRecord> {
  return stateOfRows(await tx.$queryRaw<TierRow[]>(mergedStateSql(appName, userId, sessionPk)));
}

export async function deleteSession(ctx: StoreContext, ref: SessionRef): Promise<void> {
  await ctx.write(async (tx) => {
    await tx.$executeRaw(sql`DELETE FROM sessions WHERE app_name = ${ref.appName} AND user_id = ${ref.userId} AND id = ${ref.sessionId}`);
    // The session tier's history goes with it; a new session may reuse the id.
    await tx.$executeRaw(
      sql`DELETE FROM state_changes WHERE app_name = ${ref.appName} AND scope = 'session'
          AND owner_user_id = ${ref.userId} AND owner_session_id = ${ref.sessionId}`,
    );
    await deleteMeta(tx, ref);
  });
}

export async function clearData(ctx: StoreContext, scope: DataScope): Promise<void> {
  const { appName, userId } = scope;
  await ctx.write(async (tx) => {
    if (ctx.dialect === 'postgresql') {
      // Each clear locks the app's count slots as its deletes reach them, then all of them: two
      // clears of one app (parallel tests' users) would deadlock. One at a time per app.
      await tx.$executeRaw(sql`SELECT pg_advisory_xact_lock(hashtext(${appName}))`);
    }
    if (userId === undefined) {
      await tx.$executeRaw(sql`DELETE FROM sessions WHERE app_name = ${appName}`);
      await tx.$executeRaw(sql`DELETE FROM app_state WHERE app_name = ${appName}`);
      await tx.$executeRaw(sql`DELETE FROM user_state WHERE app_name = ${appName}`);
      await tx.$executeRaw(sql`DELETE FROM state_changes WHERE app_name = ${appName}`);
      await tx.$executeRaw(sql`DELETE FROM session_meta WHERE app_name = ${appName}`);
      await tx.$executeRaw(sql`DELETE FROM session_operations WHERE app_name = ${appName}`);
    } else {
      await tx.$executeRaw(sql`DELETE FROM sessions WHERE app_name = ${appName} AND user_id = ${userId}`);
      await tx.$executeRaw(sql`DELETE FROM user_state WHERE app_name = ${appName} AND user_id = ${userId}`);
      await tx.$executeRaw(sql`DELETE FROM state_changes WHERE app_name = ${appName} AND scope <> 'app' AND owner_user_id = ${userId}`);
      await tx.$executeRaw(sql`DELETE FROM session_meta WHERE app_name = ${appName} AND user_id = ${userId}`);
      await tx.$executeRaw(sql`DELETE FROM session_operations WHERE app_name = ${appName} AND user_id = ${userId}`);
    }
    // The triggers spread an app's counts over slots and leave emptied ones behind; recounted, an
    // app left without sessions has no count rows, as if it never had any. A slot row a concurrent
    // create committed meanwhile is overwritten with a count that includes its session (ON CONFLICT).
    await tx.$executeRaw(sql`DELETE FROM app_session_counts WHERE app_name = ${appName}`);
    await tx.$executeRaw(
      sql`INSERT INTO app_session_counts (app_name, slot, sessions, users)
          SELECT app_name, pk % 16, COUNT(*), 0 FROM sessions WHERE app_name = ${appName} GROUP BY app_name, pk % 16
          ON CONFLICT (app_name, slot) DO UPDATE SET sessions = excluded.sessions, users = 0`,
    );
    await tx.$executeRaw(
      sql`INSERT INTO app_session_counts (app_name, slot, sessions, users)
          SELECT app_name, 0, 0, COUNT(*) FROM user_session_counts WHERE app_name = ${appName} GROUP BY app_name
          ON CONFLICT (app_name, slot) DO UPDATE SET users = excluded.users`,
    );
  });
}

export async function append(ctx: StoreContext, ref: SessionRef, newEvent: NewEvent, options: AppendOptions = {}): Promise<AppendResult> {
  const event = completeEvent(newEvent);
  if (event.partial) {
    const summary = await getSessionSummary(ctx, ref);
    if (!summary) throw sessionNotFound(ref.sessionId);
    return { event, revision: summary.revision };
  }
  // Revisions here are 32-bit columns; a larger one (a revision another store kind issued) is never current.
  if (options.expectedRevision !== undefined && options.expectedRevision > MAX_STORED_INTEGER) throw staleSession();
  const pending = pendingEvent(event, options.spellings);
  // A retry finds its event stored: the claim fails (its revision moved on) or the id's unique index refuses it.
  const orRetried = async (error: unknown): Promise<AppendResult> => {
    if (!isStale(error) && !isUniqueViolation(error)) throw error;
    const retried = await storedRetry(ctx, ref, pending.stored, newEvent.timestamp === undefined);
    if (!retried) throw error;
    return retried;
  };
  if (ctx.dialect === 'postgresql') {
    // One round trip: the same statements, run by the database (pg-writes.ts).
    const { stored, data, split, spelled } = pending;
    try {
      const done = await appendInOneCall(
        ctx.client,
        ref,
        options.expectedRevision,
        { stored, data, split, spelled },
        options.actor ?? stored.author,
      );
      if (done.outcome !== 'ok') throw done.outcome === 'stale' ? staleSession() : sessionNotFound(ref.sessionId);
      return { event: stored, revision: done.revision };
    } catch (error) {
      return orRetried(error);
    }
  }
  try {
    const revision = await ctx.write((tx) => insertEvent(ctx, tx, ref, options.expectedRevision, pending, options));
    return { event: pending.stored, revision };
  } catch (error) {
    return orRetried(error);
  }
}

const isStale = (error: unknown) => isSessionServiceError(error) && error.code === 'STALE_SESSION';

/**
 * The answer to a retried append: the event stored under this id, with the
 * revision its append produced, when the retry is the same event (its
 * timestamp aside, when the client left that to the server); a different
 * event under a used id is a CONFLICT. Null when the id is not stored.
 */
async function storedRetry(ctx: StoreContext, ref: SessionRef, incoming: Event, timestampFilled: boolean): Promise<AppendResult | null> {
  const rows = await ctx.read(async (tx) =>
    tx.$queryRaw<{ seq: unknown; data: string; revision: unknown; last_seq: unknown }[]>(
      sql`SELECT e.seq, e.data, s.revision, s.last_seq FROM sessions s JOIN events e ON e.session_pk = s.pk
          WHERE s.app_name = ${ref.appName} AND s.user_id = ${ref.userId} AND s.id = ${ref.sessionId}
            AND e.id = ${incoming.id} AND e.id_repeat = 0`,
    ),
  );
  const row = rows[0];
  if (!row) return null;
  const event = decodeEvent(row.data);
  const candidate = timestampFilled ? { ...incoming, timestamp: event.timestamp } : incoming;
  if (!jsonEqual(candidate as unknown as JsonValue, event as unknown as JsonValue)) throw eventIdTaken(incoming.id);
  // Every append moves the revision and the sequence number together.
  return { event, revision: toNumber(row.revision) - (toNumber(row.last_seq) - toNumber(row.seq)) };
}

/**
 * Stores one event on a session (at `revision`, when given) and persists
 * its delta by scope, inside the caller's transaction; returns the
 * session's new revision.
 */
export async function insertEvent(
  ctx: StoreContext,
  tx: SqlExecutor,
  ref: SessionRef,
  revision: number | undefined,
  { stored, data, split, spelled }: PendingEvent,
  options: AppendOptions,
): Promise<number> {
  // Compare-and-swap on the revision: the first statement is a write, so
  // SQLite takes its write lock here and PostgreSQL locks the row; a
  // second, stale copy finds the revision moved on.
  const row = await claimAndInsert(ctx, tx, ref, revision, stored, data);
  if (!row) {
    throw (await findSession(ctx, tx, ref)) ? staleSession() : sessionNotFound(ref.sessionId);
  }
  const cause: ChangeSource = {
    actor: options.actor ?? stored.author,
    reason: null,
    time: stored.timestamp,
    sourceUserId: ref.userId,
    sourceSessionId: ref.sessionId,
    eventId: stored.id,
    eventSeq: toNumber(row.seq),
  };
  await writeScoped(ctx, tx, { ...ref, sessionPk: toNumber(row.pk) }, split, cause, spelled);
  return toNumber(row.revision);
}

/**
 * Bumps the session's revision if it is still `revision` and stores the
 * event under the next sequence number; null when the session is missing
 * or the revision moved on. PostgreSQL does both in one statement (one
 * round trip); SQLite, which has no writes inside WITH, in two.
 */
export async function claimAndInsert(
  ctx: StoreContext,
  tx: SqlExecutor,
  ref: SessionRef,
  revision: number | undefined,
  stored: Event,
  data: string,
): Promise<{ pk: unknown; seq: unknown; revision: unknown } | null> {
  const claim = sql`UPDATE sessions SET revision = revision + 1, last_seq = last_seq + 1, update_time = ${stored.timestamp}
    WHERE app_name = ${ref.appName} AND user_id = ${ref.userId} AND id = ${ref.sessionId}${
      revision === undefined ? empty : sql` AND revision = ${revision}`
    }
    RETURNING pk, revision, last_seq`;
  if (ctx.dialect === 'postgresql') {
    const rows = await tx.$queryRaw<{ pk: unknown; seq: unknown; revision: unknown }[]>(
      sql`WITH claimed AS (${claim})
          INSERT INTO events (session_pk, seq, id, invocation_id, author, timestamp, data)
          SELECT pk, last_seq, CAST(${stored.id} AS TEXT), CAST(${stored.invocationId} AS TEXT), CAST(${stored.author} AS TEXT),
            CAST(${stored.timestamp} AS DOUBLE PRECISION), CAST(${data} AS TEXT) FROM claimed
          RETURNING session_pk AS pk, seq, (SELECT revision FROM claimed) AS revision`,
    );
    return rows[0] ?? null;
  }
  const claimed = (await tx.$queryRaw<{ pk: unknown; revision: unknown; last_seq: unknown }[]>(claim))[0];
  if (!claimed) return null;
  await tx.$executeRaw(
    sql`INSERT INTO events (session_pk, seq, id, invocation_id, author, timestamp, data)
        VALUES (${claimed.pk}, ${claimed.last_seq}, ${stored.id}, ${stored.invocationId}, ${stored.author}, ${stored.timestamp}, ${data})`,
  );
  return { pk: claimed.pk, seq: claimed.last_seq, revision: claimed.revision };
}

export async function editState(ctx: StoreContext, edit: StateEdit): Promise<StateEntry[]> {
  if (edit.scope === 'user' && !edit.userId) throw invalidInput('userId is required to edit user state.');
  if (!edit.reason.trim()) throw invalidInput('A reason is required for every edit.');
  if (!edit.actor.trim()) throw invalidInput('The actor of an edit must be named.');
  const owner: TierOwner = { scope: edit.scope, appName: edit.appName, userId: edit.userId ?? '', sessionId: '' };
  const cause: ChangeSource = {
    actor: edit.actor,
    reason: edit.reason,
    time: nowSeconds(),
    sourceUserId: null,
    sourceSessionId: null,
    eventId: null,
    eventSeq: null,
  };
  const expected = Object.entries(edit.expected ?? {});
  const unchanged = expected.find(([key]) => !Object.hasOwn(edit.changes, key));
  if (unchanged) throw invalidInput(`expected: "${unchanged[0]}" is not one of the changed keys.`);
  try {
    return await ctx.write(async (tx) => {
      const replaced = await writeTier(tx, ctx.dialect, owner, Object.entries(edit.changes), cause, {
        returnOld: expected.length > 0,
        spellings: edit.spellings,
      });
      // The old values were read under the write's own locks: a concurrent edit of these keys either
      // committed before them (and is seen here) or waits for this transaction.
      const conflicts = expected.flatMap(([key, seen]) => {
        const old = replaced.get(key) ?? null;
        const current = old === null ? undefined : decodeJson(old);
        const same = seen.present ? current !== undefined && jsonEqual(current, seen.value) : current === undefined;
        return same ? [] : [{ key, current }];
      });
      // Thrown inside the transaction: it rolls back every change and history row written above.
      if (conflicts.length > 0) throw new StateConflictError(conflicts);
      return edit.scope === 'app' ? appEntries(ctx, tx, edit.appName) : userEntries(ctx, tx, edit.appName, owner.userId);
    });
  } catch (error) {
    if (!(error instanceof StateConflictError)) throw error;
    // Who made the change in the way, for the message (read after the rollback).
    const entries = edit.scope === 'app' ? await getAppState(ctx, edit.appName) : await getUserState(ctx, edit.appName, owner.userId);
    const byKey = new Map(entries.map((entry) => [entry.key, entry.lastChange?.actor]));
    throw new StateConflictError(
      error.conflicts.map((conflict) => {
        const by = conflict.current === undefined ? undefined : byKey.get(conflict.key);
        return by === undefined ? conflict : { ...conflict, by };
      }),
    );
  }
}

/** The SessionStore writes of this file, for the facade (store.ts). */
export const storeWrites = { createSession, append, deleteSession, editState, clearData };
