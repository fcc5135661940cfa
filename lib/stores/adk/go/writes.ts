// adk-go's writes (session/database/service.go at google/adk-go@0a51e153):
// applyEvent in one GORM transaction: the session row read, the stale check
// (`storage.UpdateTime.UnixMicro() > session.updatedAt.UnixMicro()`), the app
// and user rows read, `tx.Save` of each tier the delta changes (an UPDATE of
// every column; when no row matched, an INSERT: a new tier row keeps Go's zero
// time in update_time, since nothing sets it), `tx.Create` of the event, then
// `tx.Save` of the session with its merged state and `UpdateTime =
// event.Timestamp`. Maps are merged with `maps.Copy` (`state | delta`).
import type { AgentDialect, AgentQuery, Param } from '../agent-db';
import type { FamilyWrites, TimeCodec } from '../family';
import { insertSessionRow } from '../base/insert-rows';
import { unionDelta } from '../base/replay';
import type { SessionRef } from '../../../session-service/store';
import type { Event, StateRecord } from '../../../session-service/types';
import { encodeGoEvent, goJson } from './event-codec';
import { GO_ZERO_TIME } from './time';

/** A []byte bound as bytes, as Go's driver binds it (text would be stored as TEXT on SQLite and parsed as escapes by bytea). */
const BYTES: Record<AgentDialect, string> = { sqlite: 'CAST(? AS BLOB)', postgresql: "convert_to(?, 'UTF8')", mysql: 'CAST(? AS BINARY)' };

export function adkGoWrites(dialect: AgentDialect, time: TimeCodec, eventColumns: readonly string[]): FamilyWrites {
  const saveTier = async (q: AgentQuery, scope: 'app' | 'user', appName: string, userId: string, exists: boolean, state: StateRecord) => {
    // Save's UPDATE writes update_time back as loaded, which leaves it as it is.
    const blob = goJson(state);
    if (scope === 'app') {
      if (exists) await q.run('UPDATE app_states SET state = ? WHERE app_name = ?', [blob, appName]);
      else await q.run('INSERT INTO app_states (app_name, state, update_time) VALUES (?, ?, ?)', [appName, blob, GO_ZERO_TIME[dialect]]);
    } else if (exists) {
      await q.run('UPDATE user_states SET state = ? WHERE app_name = ? AND user_id = ?', [blob, appName, userId]);
    } else {
      await q.run('INSERT INTO user_states (app_name, user_id, state, update_time) VALUES (?, ?, ?, ?)', [
        appName,
        userId,
        blob,
        GO_ZERO_TIME[dialect],
      ]);
    }
  };
  // tx.Create(storageEv): every column the table has, as createStorageEvent fills them.
  const insertEvent = async (q: AgentQuery, ref: SessionRef, event: Event) => {
    const values: Record<string, Param> = {
      ...encodeGoEvent(event),
      id: event.id,
      app_name: ref.appName,
      user_id: ref.userId,
      session_id: ref.sessionId,
      invocation_id: event.invocationId,
      author: event.author,
      timestamp: time.encode(event.timestamp, 'event'),
    };
    const columns = eventColumns.filter((column) => Object.hasOwn(values, column));
    await q.run(
      `INSERT INTO events (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((c) => (c === 'actions' ? BYTES[dialect] : '?')).join(', ')})`,
      columns.map((column) => values[column] ?? null),
    );
  };
  return {
    insertEvent,
    // GORM takes no explicit lock: the rows are locked as they are written, app, user, then the session.
    lockedRows: (delta) => [
      ...(Object.keys(delta.app).length > 0 ? (['app'] as const) : []),
      ...(Object.keys(delta.user).length > 0 ? (['user'] as const) : []),
      'session',
    ],
    async append(q, write) {
      const { ref, event, delta } = write;
      if (Object.keys(delta.app).length > 0)
        await saveTier(q, 'app', ref.appName, '', write.hasAppRow, unionDelta({ ...write.app }, delta.app));
      if (Object.keys(delta.user).length > 0)
        await saveTier(q, 'user', ref.appName, ref.userId, write.hasUserRow, unionDelta({ ...write.user }, delta.user));
      await insertEvent(q, ref, event);
      await q.run('UPDATE sessions SET state = ?, update_time = ? WHERE app_name = ? AND user_id = ? AND id = ?', [
        goJson(unionDelta({ ...write.session }, delta.session)),
        time.encode(event.timestamp, 'sessionUpdate'),
        ref.appName,
        ref.userId,
        ref.sessionId,
      ]);
    },
    async editTier(q, write) {
      const exists = write.scope === 'app' ? write.hasAppRow : write.hasUserRow;
      await saveTier(q, write.scope, write.appName, write.userId ?? '', exists, write.next);
    },
    // Create: tiers saved only when the initial state has keys for them; the session with create_time = update_time = now.
    async createSession(q, write) {
      const { ref, delta } = write;
      if (Object.keys(delta.app).length > 0)
        await saveTier(q, 'app', ref.appName, '', write.hasAppRow, unionDelta({ ...write.app }, delta.app));
      if (Object.keys(delta.user).length > 0)
        await saveTier(q, 'user', ref.appName, ref.userId, write.hasUserRow, unionDelta({ ...write.user }, delta.user));
      const now = time.encode(write.now, 'sessionCreate');
      await insertSessionRow(q, ref, goJson(delta.session), now);
    },
  };
}
