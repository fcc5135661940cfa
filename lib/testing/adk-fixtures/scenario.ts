// One small agent history, written into every kind of store the read
// contract runs on. Events are in adk-python's own dump form (snake_case,
// `model_dump(exclude_none=True, mode="json")`), since that is what the
// Python stores hold; the native store gets them through the HTTP edge's
// snake_case conversion, as an ADK client posting them would.
import type { JsonObject } from '../../session-service/types';

/** 2026-01-01T00:00:00Z. */
export const T0 = 1_767_225_600;

export interface ScenarioEvent extends JsonObject {
  id: string;
  invocation_id: string;
  author: string;
  timestamp: number;
  actions: JsonObject & { state_delta: JsonObject };
}

export interface ScenarioSession {
  userId: string;
  sessionId: string;
  /** Seconds: the session's creation (and, without events, its last update). */
  created: number;
  events: ScenarioEvent[];
}

function event(id: string, author: string, timestamp: number, stateDelta: JsonObject, extra: JsonObject = {}): ScenarioEvent {
  return {
    // pydantic dumps the model's fields with their defaults; None fields are excluded.
    invocation_id: `inv-${id}`,
    author,
    actions: { state_delta: stateDelta, artifact_delta: {}, requested_auth_configs: {}, requested_tool_confirmations: {} },
    id,
    timestamp,
    ...extra,
  };
}

export const APP = 'travel_agent';
export const FILLERS = 30;

export const SESSIONS: ScenarioSession[] = [
  {
    userId: 'alice',
    sessionId: 'trip-paris',
    created: T0,
    events: [
      event('e1', 'user', T0 + 1.25, {}, { content: { role: 'user', parts: [{ text: 'Plan a trip to Paris, près de la Seine' }] } }),
      event(
        'e2',
        'planner',
        T0 + 2.5,
        { destination: 'Paris', 'user:home_city': 'Berlin', 'app:bookings': 1 },
        {
          content: {
            role: 'model',
            parts: [{ function_call: { id: 'call-1', name: 'book_hotel', args: { city: 'Paris', max_price: 200 } } }],
          },
        },
      ),
      event(
        'e3',
        'planner',
        T0 + 3.75,
        { destination: 'Lyon', nights: 3, 'app:bookings': 2 },
        { turn_complete: true, custom_metadata: { trace_id: 'abc' } },
      ),
    ],
  },
  {
    userId: 'alice',
    sessionId: 'trip-rome',
    created: T0 + 5,
    events: [event('e4', 'planner', T0 + 10.5, { destination: 'Rome', 'user:home_city': 'Munich' })],
  },
  {
    userId: 'bob',
    sessionId: 'weekend',
    created: T0 + 6,
    events: [event('e5', 'planner', T0 + 20.125, { 'app:bookings': 3, budget: { amount: 500, currency: 'EUR' } })],
  },
  ...Array.from({ length: FILLERS }, (_, index) => ({
    userId: 'carol',
    sessionId: `filler-${String(index).padStart(2, '0')}`,
    created: T0 - 1000 + index,
    events: [],
  })),
];

/** The state everything above leaves, by tier. */
export const FINAL = {
  app: { bookings: 3 },
  alice: { home_city: 'Munich' },
  tripParis: { destination: 'Lyon', nights: 3 },
};
