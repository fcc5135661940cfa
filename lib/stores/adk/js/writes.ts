// Writes as adk-js 2.0.0's DatabaseSessionService makes them
// (dist/esm/sessions/database_session_service.js), in the caller's one
// transaction. What MikroORM sends for an appendEvent on PostgreSQL
// (logged with `debug: ['query']`): SELECT the session row FOR UPDATE, the
// app and user rows, the event by id; INSERT the event; UPDATE each tier the
// delta changed (its state, and `update_time` from the entity's
// `onUpdate: () => new Date()`); then `UPDATE sessions SET update_time =
// <event timestamp>` (`storageSession.updateTime = new Date(event.timestamp)`).
// On SQLite MikroORM also rewrites every loaded row's update_time on each
// append (its change set sees the INTEGER column as changed); nothing reads
// those, so Statehouse writes the PostgreSQL set on both.
import type { AgentDialect, AgentQuery } from '../agent-db';
import { insertEventRow, insertSessionRow } from '../base/insert-rows';
import type { AppendWrite, CreateWrite, FamilyWrites, TierWrite } from '../family';
import { encodeAdkJsEvent, eventMillis } from './event-codec';
import { adkJsTime } from './time';
import type { SessionRef } from '../../../session-service/store';
import type { Event, StateRecord } from '../../../session-service/types';

const isEmpty = (record: StateRecord) => Object.keys(record).length === 0;

export function adkJsWrites(dialect: AgentDialect): FamilyWrites {
  const time = adkJsTime(dialect);
  // The tiers' update_time is MikroORM's `new Date()` at flush: the wall clock, not the event's time.
  const wallClock = () => time.encode(Date.now() / 1000, 'tierUpdate');
  const json = (state: StateRecord) => JSON.stringify(state);

  /** A tier row: created when missing (adk-js creates `{}` rows on first use), updated when its state changed. */
  async function writeTier(
    q: AgentQuery,
    scope: 'app' | 'user',
    appName: string,
    userId: string,
    exists: boolean,
    state: StateRecord,
    changed: boolean,
  ) {
    if (!exists) {
      if (scope === 'app')
        await q.run('INSERT INTO app_states (app_name, state, update_time) VALUES (?, ?, ?)', [appName, json(state), wallClock()]);
      else
        await q.run('INSERT INTO user_states (app_name, user_id, state, update_time) VALUES (?, ?, ?, ?)', [
          appName,
          userId,
          json(state),
          wallClock(),
        ]);
    } else if (changed) {
      if (scope === 'app')
        await q.run('UPDATE app_states SET state = ?, update_time = ? WHERE app_name = ?', [json(state), wallClock(), appName]);
      else
        await q.run('UPDATE user_states SET state = ?, update_time = ? WHERE app_name = ? AND user_id = ?', [
          json(state),
          wallClock(),
          appName,
          userId,
        ]);
    }
  }

  // appendEvent's new StorageEvent: the snake_case event JSON, its timestamp in milliseconds.
  async function insertEvent(q: AgentQuery, ref: SessionRef, event: Event): Promise<void> {
    await insertEventRow(q, ref, event, time.encode(eventMillis(event) / 1000, 'event'), encodeAdkJsEvent(event));
  }

  return {
    insertEvent,
    // appendEvent: the session row FOR UPDATE; at flush MikroORM updates the user row before the app row (logged on PostgreSQL).
    lockedRows: (delta) => [
      'session',
      ...(isEmpty(delta.user) ? [] : (['user'] as const)),
      ...(isEmpty(delta.app) ? [] : (['app'] as const)),
    ],
    async append(q: AgentQuery, write: AppendWrite): Promise<void> {
      const { ref, event, delta } = write;
      await writeTier(q, 'app', ref.appName, ref.userId, write.hasAppRow, { ...write.app, ...delta.app }, !isEmpty(delta.app));
      await writeTier(q, 'user', ref.appName, ref.userId, write.hasUserRow, { ...write.user, ...delta.user }, !isEmpty(delta.user));
      const at = time.encode(eventMillis(event) / 1000, 'event');
      const key = [event.id, ref.appName, ref.userId, ref.sessionId];
      // appendEvent replaces an event of the same id (existingStorageEvent) rather than failing.
      const replaced = await q.run(
        'UPDATE events SET event_data = ?, timestamp = ? WHERE id = ? AND app_name = ? AND user_id = ? AND session_id = ?',
        [encodeAdkJsEvent(event), at, ...key],
      );
      if (replaced === 0) await insertEvent(q, ref, event);
      const sessionKey = [ref.sessionId, ref.appName, ref.userId];
      if (!isEmpty(delta.session)) {
        await q.run('UPDATE sessions SET state = ?, update_time = ? WHERE id = ? AND app_name = ? AND user_id = ?', [
          json({ ...write.session, ...delta.session }),
          at,
          ...sessionKey,
        ]);
      } else {
        await q.run('UPDATE sessions SET update_time = ? WHERE id = ? AND app_name = ? AND user_id = ?', [at, ...sessionKey]);
      }
    },

    async editTier(q: AgentQuery, write: TierWrite): Promise<void> {
      const exists = write.scope === 'app' ? write.hasAppRow : write.hasUserRow;
      await writeTier(q, write.scope, write.appName, write.userId ?? '', exists, write.next, true);
    },

    async createSession(q: AgentQuery, write: CreateWrite): Promise<void> {
      const { ref, delta } = write;
      await writeTier(q, 'app', ref.appName, ref.userId, write.hasAppRow, { ...write.app, ...delta.app }, !isEmpty(delta.app));
      await writeTier(q, 'user', ref.appName, ref.userId, write.hasUserRow, { ...write.user, ...delta.user }, !isEmpty(delta.user));
      // createSession: `createTime: now, updateTime: now` from one `new Date()`.
      const now = time.encode(write.now, 'sessionCreate');
      await insertSessionRow(q, ref, json(delta.session), now);
    },
  };
}
