// The codec the shared base reads the mirror with (mirror.ts), for both
// layouts: state and events are adk-python's JSON (snake_case events,
// `json.dumps`/orjson values), times float seconds, and a state delta merges
// as dict.update does (both layouts apply it with `state[k] = v`).
import type { Event, JsonValue } from '../../../session-service/types';
import type { FamilyCodec, FamilyWrites } from '../family';
import { unionDelta } from '../base/replay';
import { readObject, UnreadableValueError } from '../base/unreadable';
import { eventFromPython } from '../python/event-json';
import { MIRROR_LAYOUT } from './mirror';
import { brokenOf } from './snapshot';

/** Maps whose keys and values are data, where a null is a value (a state delta setting null), not an unset model field. */
const OPAQUE = new Set([
  'state_delta',
  'artifact_delta',
  'args',
  'response',
  'custom_metadata',
  'requested_auth_configs',
  'requested_tool_confirmations',
]);

/** `Session.model_dump()` keeps every unset field as null; model_validate reads them as unset. */
function withoutNulls(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, JsonValue> = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === null) continue;
    const kept = OPAQUE.has(key) ? child : withoutNulls(child);
    Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function seconds(raw: unknown): number {
  if (typeof raw !== 'number')
    throw new UnreadableValueError('last_update_time', raw, raw === null ? 'missing' : 'not a number of seconds');
  return raw;
}

export function redisCodec(layout: 'adk-python' | 'community', writes: FamilyWrites | undefined): FamilyCodec {
  return {
    layout: MIRROR_LAYOUT,
    time: { decode: seconds, encode: (value) => value },
    decodeState(raw) {
      const broken = brokenOf(raw);
      if (broken) throw new UnreadableValueError(broken.field, broken.raw, broken.reason);
      return readObject(raw, 'state');
    },
    decodeEvent(row): Event {
      const data = readObject(row.event, 'events');
      return eventFromPython(layout === 'community' ? withoutNulls(data) : data);
    },
    applyDelta: unionDelta,
    // adk-python: append_event refuses when the stored revision is not the loaded copy's; Statehouse's revision is the
    // last_update_time every append sets. The community service has no stale check.
    isStale: layout === 'adk-python' ? (stored, loaded) => stored !== loaded : () => false,
    ...(writes ? { writes } : {}),
  };
}
