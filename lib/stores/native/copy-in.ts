// Writes whole sessions as they are (forks and imports): the session row, its
// session-tier state before the first event, then each event with its
// session-scope keys replayed into the tier, the event named as their cause,
// so that the copy's timeline, history and time travel work as the
// original's do. app: and user: keys are written into the shared tiers only
// when the copy says so (an import that applies them); a fork shares its
// source's tiers, which already hold them.
import { join, sqltag as sql } from '@prisma/client/runtime/client';
import type { SqlExecutor } from '../../db/sql';
import { sessionAlreadyExists } from '../../session-service/errors';
import { nowSeconds, storedForm } from '../../session-service/events';
import { ownEntries } from '../../session-service/json';
import type { Audit, SessionCopy } from '../../session-service/operations';
import type { ChangeSource } from '../../session-service/types';
import { sessionScope } from '../../session-service/replay';
import { splitDelta, withoutTempKeys } from '../../session-service/scope';
import { encodeEvent, splitSpellings } from '../../session-service/value-spelling';
import type { StoreContext } from './context';
import { chunks, toNumber, type Dialect } from './dialect';
import { recordOperation } from './operation-log';
import { writeMeta } from './session-meta';
import { writeTier } from './tier-writes';

/** Events per INSERT: 7 bound values each, well under SQLite's limit. */
const EVENT_BATCH = 200;

export interface CopyOptions extends Audit {
  /** The copy's lastUpdateTime; by default its last event's time, or `now` without events. */
  lastUpdateTime?: number;
  now: number;
}

/** Inserts the copy inside the caller's transaction; ALREADY_EXISTS when its id is taken. Returns its row's pk. */
export async function insertCopy(tx: SqlExecutor, dialect: Dialect, copy: SessionCopy, options: CopyOptions): Promise<number> {
  const events = copy.events.map(storedForm);
  const count = events.length;
  const updateTime = options.lastUpdateTime ?? events.at(-1)?.timestamp ?? options.now;
  const inserted = await tx.$queryRaw<{ pk: unknown }[]>(
    sql`INSERT INTO sessions (app_name, user_id, id, revision, last_seq, create_time, update_time)
        VALUES (${copy.appName}, ${copy.userId}, ${copy.sessionId}, ${count}, ${count}, ${copy.createTime ?? options.now}, ${updateTime})
        ON CONFLICT DO NOTHING RETURNING pk`,
  );
  const pkValue = inserted[0]?.pk;
  if (pkValue === undefined) throw sessionAlreadyExists(copy.sessionId);
  const pk = toNumber(pkValue);
  const owner = { scope: 'session' as const, appName: copy.appName, userId: copy.userId, sessionId: copy.sessionId, sessionPk: pk };
  const cause = (fields: Partial<ChangeSource>): ChangeSource => ({
    actor: options.actor,
    reason: options.reason?.trim() || null,
    time: options.now,
    sourceUserId: copy.userId,
    sourceSessionId: copy.sessionId,
    eventId: null,
    eventSeq: null,
    ...fields,
  });
  await writeTier(tx, dialect, owner, ownEntries(sessionScope(copy.initialState)), cause({}), { spellings: copy.spellings });

  const float = (value: number) => (dialect === 'postgresql' ? sql`CAST(${value} AS DOUBLE PRECISION)` : sql`${value}`);
  for (const [batchIndex, batch] of chunks(events, EVENT_BATCH).entries()) {
    const rows = batch.map((event, i) => {
      const seq = batchIndex * EVENT_BATCH + i + 1;
      const data = encodeEvent(event, copy.eventSpellings?.[seq - 1]);
      return sql`(${pk}, ${seq}, ${event.id}, ${event.invocationId}, ${event.author}, ${float(event.timestamp)}, ${data})`;
    });
    await tx.$executeRaw(sql`INSERT INTO events (session_pk, seq, id, invocation_id, author, timestamp, data) VALUES ${join(rows)}`);
  }
  const shared = {
    app: { scope: 'app' as const, appName: copy.appName, userId: '', sessionId: '' },
    user: { scope: 'user' as const, appName: copy.appName, userId: copy.userId, sessionId: '' },
  };
  for (const [i, event] of events.entries()) {
    const by = cause({ time: event.timestamp, eventId: event.id, eventSeq: i + 1 });
    const changes = ownEntries(sessionScope(event.actions.stateDelta));
    const spelled = splitSpellings(copy.eventSpellings?.[i]);
    if (changes.length > 0) await writeTier(tx, dialect, owner, changes, by, { spellings: spelled.session });
    if (!copy.applySharedState) continue;
    // The events' app: and user: changes, into the shared tiers, as the agent's appends made them.
    const delta = splitDelta(withoutTempKeys(event.actions.stateDelta));
    for (const scope of ['app', 'user'] as const) {
      const tierChanges = ownEntries(delta[scope]);
      if (tierChanges.length > 0) await writeTier(tx, dialect, shared[scope], tierChanges, by, { spellings: spelled[scope] });
    }
  }
  if (copy.forkedFrom || copy.title || (copy.labels && copy.labels.length > 0)) {
    await writeMeta(tx, copy, { title: copy.title ?? null, labels: copy.labels ?? [], forkedFrom: copy.forkedFrom ?? null }, options.now);
  }
  return pk;
}

/** Imported sessions: all of them, each recorded in the operations history, or none. */
export async function importSessions(ctx: StoreContext, copies: SessionCopy[], audit: Audit): Promise<void> {
  const now = nowSeconds();
  await ctx.write(async (tx) => {
    for (const copy of copies) {
      await insertCopy(tx, ctx.dialect, copy, { ...audit, now, lastUpdateTime: copy.lastUpdateTime });
      await recordOperation(
        tx,
        { appName: copy.appName, userId: copy.userId, sessionId: copy.sessionId, kind: 'import', detail: { events: copy.events.length } },
        audit,
        now,
      );
    }
  });
}
