// The session page's reads with large values cut (lib/data/value-cut.ts),
// each cut naming the /value route that answers with the whole of it. The
// page's prefetch always cuts; the dashboard routes cut when asked
// (`preview=1`), so API clients keep whole values by default.
import { sessionApiPath } from '../paths';
import type { SessionRef } from '../session-service/store';
import type { Event, JsonValue, StateEntry } from '../session-service/types';
import type { SessionStateView, TimelineItem } from './session-views';
import { cutValue } from './value-cut';

type Query = Record<string, string | number>;

function valueSource(ref: SessionRef, query: Query): (pointer: string) => string {
  return (pointer) => {
    const params = new URLSearchParams(Object.entries({ ...query, pointer }).map(([name, value]) => [name, String(value)]));
    return `${sessionApiPath(ref)}/value?${params.toString()}`;
  };
}

/** An event's content, delta values and any other field: each a value that may be cut; its identity stays. */
export function cutEvent(ref: SessionRef, seq: number, event: Event): Event {
  const source = valueSource(ref, { at: 'event', seq });
  const { id, invocationId, author, timestamp, actions, ...rest } = event;
  const { stateDelta, ...otherActions } = actions;
  const cutRecord = (record: Record<string, unknown>, pointer: string) =>
    Object.fromEntries(
      Object.entries(record).map(([key, value]) => [
        key,
        cutValue(value as JsonValue, (inner) => source(`${pointer}/${escape(key)}${inner}`)),
      ]),
    );
  return {
    ...(cutRecord(rest, '') as Partial<Event>),
    id,
    invocationId,
    author,
    timestamp,
    actions: { ...(cutRecord(otherActions, '/actions') as Event['actions']), stateDelta: cutRecord(stateDelta, '/actions/stateDelta') },
  };
}

const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

export function cutTimelineItem(ref: SessionRef, item: TimelineItem): TimelineItem {
  return {
    ...item,
    event: cutEvent(ref, item.seq, item.event),
    changes: item.changes.map((change) => {
      const side = (name: 'old' | 'new', value: JsonValue | undefined) =>
        value === undefined ? undefined : cutValue(value, valueSource(ref, { at: 'change', seq: item.seq, change: change.id, side: name }));
      return { ...change, oldValue: side('old', change.oldValue), newValue: side('new', change.newValue) };
    }),
  };
}

export function cutStateView(ref: SessionRef, view: SessionStateView, asOf?: number): SessionStateView {
  const tier = (scope: 'app' | 'user' | 'session', entries: StateEntry[]) =>
    entries.map(({ written, ...entry }) => {
      const value = cutValue(
        entry.value,
        valueSource(ref, { at: 'state', tier: scope, key: entry.key, ...(asOf === undefined ? {} : { asOf }) }),
      );
      // The stored spelling only of a value shown whole: a cut value's text would undo the cut.
      const whole = written !== undefined && JSON.stringify(value) === JSON.stringify(entry.value);
      return { ...entry, value, ...(whole ? { written } : {}) };
    });
  return { ...view, app: tier('app', view.app), user: tier('user', view.user), session: tier('session', view.session) };
}
