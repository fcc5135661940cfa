// A fork: a new session of the same user with the source's events 1..N and
// its session tier as it stood right after event N, read and written in one
// transaction. The shared tiers are not copied: the fork reads the same app
// and user state as its source.
import { sqltag as sql } from '@prisma/client/runtime/client';
import { invalidInput, sessionNotFound } from '../../session-service/errors';
import { newId, nowSeconds } from '../../session-service/events';
import { decodeJson, setOwn } from '../../session-service/json';
import type { Audit, ForkRequest } from '../../session-service/operations';
import type { SessionSummary, StateRecord } from '../../session-service/types';
import type { StoreContext } from './context';
import { insertCopy } from './copy-in';
import { toNumber } from './dialect';
import { recordOperation } from './operation-log';
import { decodeEvent } from './rows';
import { EVENT_DELTA_PATHS, spelledBody, spellingOfValue, spellingsAt } from '../../session-service/value-spelling';

export async function forkSession(ctx: StoreContext, request: ForkRequest, audit: Audit): Promise<SessionSummary> {
  const now = nowSeconds();
  const { source, atSeq } = request;
  if (!Number.isInteger(atSeq) || atSeq < 1) throw invalidInput(`atSeq: must be an event number from 1; got ${atSeq}.`);
  const sessionId = request.sessionId?.trim() || newId();
  return ctx.write(async (tx) => {
    const [row] = await tx.$queryRaw<{ pk: unknown; last_seq: unknown }[]>(
      sql`SELECT pk, last_seq FROM sessions
          WHERE app_name = ${source.appName} AND user_id = ${source.userId} AND id = ${source.sessionId}`,
    );
    if (!row) throw sessionNotFound(source.sessionId);
    const last = toNumber(row.last_seq);
    if (atSeq > last) {
      throw invalidInput(`atSeq: session ${source.sessionId} has ${last} event${last === 1 ? '' : 's'}; there is no event #${atSeq}.`);
    }
    const eventRows = await tx.$queryRaw<{ seq: unknown; data: string }[]>(
      sql`SELECT seq, data FROM events WHERE session_pk = ${toNumber(row.pk)} AND seq <= ${atSeq} ORDER BY seq`,
    );
    // After events were pruned, replaying what is left would not give the state as it stood.
    if (eventRows.length !== atSeq) {
      throw invalidInput(
        `atSeq: events up to #${atSeq} of session ${source.sessionId} were deleted, so its state there cannot be replayed.`,
      );
    }
    // The session tier before any event: what the session was created (or copied) with.
    const initialRows = await tx.$queryRaw<{ key: string; new_value: string | null }[]>(
      sql`SELECT key, new_value FROM state_changes WHERE app_name = ${source.appName} AND scope = 'session'
            AND owner_user_id = ${source.userId} AND owner_session_id = ${source.sessionId} AND event_seq IS NULL
          ORDER BY id`,
    );
    const initialState: StateRecord = {};
    const spellings = new Map<string, string>();
    for (const change of initialRows) {
      spellings.delete(change.key);
      if (change.new_value === null) {
        delete initialState[change.key];
        continue;
      }
      setOwn(initialState, change.key, decodeJson(change.new_value));
      for (const [key, text] of spellingOfValue(change.key, change.new_value) ?? []) spellings.set(key, text);
    }
    const events = eventRows.map((event) => decodeEvent(event.data));
    // The copy keeps the numbers as the source's rows spell them (a 2.0 stays a float for a Python agent).
    const eventSpellings = eventRows.map((event) => spellingsAt(spelledBody(event.data), ...EVENT_DELTA_PATHS));
    const forkedFrom = { sessionId: source.sessionId, atSeq };
    await insertCopy(
      tx,
      ctx.dialect,
      {
        appName: source.appName,
        userId: source.userId,
        sessionId,
        initialState,
        events,
        forkedFrom,
        ...(spellings.size > 0 ? { spellings } : {}),
        ...(eventSpellings.some((event) => event !== undefined) ? { eventSpellings } : {}),
      },
      { ...audit, now, lastUpdateTime: now },
    );
    await recordOperation(
      tx,
      { appName: source.appName, userId: source.userId, sessionId, kind: 'fork', detail: { fromSessionId: source.sessionId, atSeq } },
      audit,
      now,
    );
    return {
      id: sessionId,
      appName: source.appName,
      userId: source.userId,
      createTime: now,
      lastUpdateTime: now,
      eventCount: events.length,
      revision: events.length,
    };
  });
}
