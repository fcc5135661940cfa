// adk-go and adk-rust keep an event's fields in columns of its row rather
// than one JSON text: the fields every such row has, and the actions' maps,
// each empty where the stored value is not an object.
import type { Row } from '../agent-db';
import type { Event } from '../../../session-service/types';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const objectOrEmpty = <T>(value: unknown): T => (isObject(value) ? value : {}) as T;

type ActionMaps = Record<'stateDelta' | 'artifactDelta' | 'requestedToolConfirmations', unknown>;

export function columnEvent(row: Row, timestamp: number, rest: Obj, maps: ActionMaps): Event {
  return {
    id: String(row.id),
    invocationId: String(row.invocation_id ?? ''),
    author: String(row.author ?? ''),
    timestamp,
    actions: {
      ...rest,
      stateDelta: objectOrEmpty(maps.stateDelta),
      artifactDelta: objectOrEmpty(maps.artifactDelta),
      requestedAuthConfigs: {},
      requestedToolConfirmations: objectOrEmpty(maps.requestedToolConfirmations),
    },
  };
}
