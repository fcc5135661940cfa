// Decoding the rows the base reads through the family's codec, so that no
// value in them reaches beyond its own session: a time or blob that cannot
// be read becomes an UnreadableNote (lists, events) or UNREADABLE for the
// session it belongs to (base/unreadable.ts).
import type { Row } from '../agent-db';
import type { FamilyCodec, TimeColumn } from '../family';
import type { Event, StateRecord, UnreadableNote } from '../../../session-service/types';
import { checkedEvent, checkInstant, noteOf, rawText, unreadableEvent, unreadableSession, UnreadableValueError } from './unreadable';

export interface SessionRowView {
  state: StateRecord;
  /** The blob as the database returned it (JSON text in a text column): its number spelling, for template previews. */
  stateRaw: unknown;
  updateRaw: unknown;
  createRaw: unknown;
  /** Float seconds of update_time and create_time. */
  update: number;
  create: number;
}

export interface TierRowView {
  /** Empty when the stored blob cannot be read (then `unreadable` says why). */
  state: StateRecord;
  /** As SessionRowView's. */
  stateRaw: unknown;
  updateRaw: unknown;
  unreadable?: UnreadableNote;
}

export class RowDecoder {
  constructor(private readonly codec: FamilyCodec) {}

  private columnName(column: TimeColumn): string {
    const { sessions, events, appStates } = this.codec.layout;
    if (column === 'event') return events.timestamp;
    if (column === 'tierUpdate') return appStates.updateTime;
    return column === 'sessionCreate' ? sessions.createTime : sessions.updateTime;
  }

  /** Float seconds of a stored time, or UnreadableValueError naming its column. */
  seconds(raw: unknown, column: TimeColumn): number {
    const name = this.columnName(column);
    let seconds: number;
    try {
      seconds = this.codec.time.decode(raw, column);
    } catch (error) {
      throw new UnreadableValueError(name, raw, error instanceof UnreadableValueError ? error.note.reason : 'not a timestamp');
    }
    return checkInstant(seconds, name, raw);
  }

  /** Float seconds, or null for a value no clock can read. */
  secondsOrNull(raw: unknown, column: TimeColumn): number | null {
    try {
      return this.seconds(raw, column);
    } catch {
      return null;
    }
  }

  /** A time for a list: 0 and a note when unreadable, so the list still shows the row. */
  listedSeconds(raw: unknown, column: TimeColumn, notes: UnreadableNote[]): number {
    try {
      return this.seconds(raw, column);
    } catch (error) {
      notes.push(noteOf(error, this.columnName(column), raw));
      return 0;
    }
  }

  /** The session's revision: its update time in µs, which is what ADK's own stale checks compare. */
  static revision(update: number): number {
    return Math.round(update * 1e6);
  }

  /** A session's own row, whole, or UNREADABLE (422) naming the column that is not. */
  session(sessionId: string, row: Row): SessionRowView {
    try {
      return {
        state: this.state(row.state, this.codec.layout.sessions.state),
        stateRaw: row.state,
        updateRaw: row.u,
        createRaw: row.c,
        update: this.seconds(row.u, 'sessionUpdate'),
        create: this.seconds(row.c, 'sessionCreate'),
      };
    } catch (error) {
      throw unreadableSession(`Session ${sessionId}`, noteOf(error, 'row', row));
    }
  }

  state(raw: unknown, column: string): StateRecord {
    try {
      return this.codec.decodeState(raw);
    } catch (error) {
      throw new UnreadableValueError(column, raw, error instanceof UnreadableValueError ? error.note.reason : String(error));
    }
  }

  /** An app or user tier: its blob, or an empty tier and why when the blob cannot be read. */
  tier(row: Row): TierRowView {
    try {
      return { state: this.state(row.state, this.codec.layout.appStates.state), stateRaw: row.state, updateRaw: row.u };
    } catch (error) {
      return { state: {}, stateRaw: row.state, updateRaw: row.u, unreadable: noteOf(error, this.codec.layout.appStates.state, row.state) };
    }
  }

  /** An event row as the console shows it: decoded and checked, or, when it cannot be decoded, its keys and the note. */
  event(row: Row): Event {
    try {
      return checkedEvent(this.codec.decodeEvent(row));
    } catch (error) {
      const events = this.codec.layout.events;
      const note = noteOf(
        error,
        'row',
        rawText(JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value))),
      );
      return unreadableEvent(
        { id: row[events.id], invocationId: row.invocation_id, timestamp: this.secondsOrNull(row[events.timestamp], 'event') },
        note,
      );
    }
  }
}
