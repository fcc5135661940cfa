import { z } from 'zod';
import type { JsonValue, NewEvent, StateRecord } from '../../session-service/types';
import { idSchema } from '../../validation/schemas';
import { convertAdkFields, CREATE_SESSION_SHAPE, UPDATE_SESSION_SHAPE } from '../../validation/adk-case';
import { parseWith } from '../../validation/issues';
import { parseEvent } from '../../validation/adk-event';
import { isJsonObject, stateSchema } from '../../validation/json-schemas';

const createSessionSchema = z.object({
  sessionId: idSchema.nullish(),
  state: stateSchema.nullish(),
  events: z.array(z.unknown()).nullish(),
});

export interface CreateSessionBody {
  sessionId?: string;
  state?: StateRecord;
  events: NewEvent[];
}

/** ADK's CreateSessionRequest `{sessionId?, state?, events?}`; no body (or null) is "all defaults". */
export function parseCreateSession(body: JsonValue | undefined): CreateSessionBody {
  if (body === undefined || body === null) return { events: [] };
  const converted = convertAdkFields(body, CREATE_SESSION_SHAPE);
  const parsed = parseWith(createSessionSchema, converted);
  // Every event is checked before anything is written, so a bad one leaves no session behind.
  const rawEvents = isJsonObject(converted) && Array.isArray(converted.events) ? converted.events : [];
  return {
    ...(parsed.sessionId ? { sessionId: parsed.sessionId } : {}),
    ...(parsed.state ? { state: parsed.state } : {}),
    events: rawEvents.map((event, index) => parseEvent(event, `events.${index}`)),
  };
}

/** POST /sessions/{id}: the whole body is the initial state (ADK's `state: Optional[dict]` body parameter). */
export function parseInitialState(body: JsonValue | undefined): StateRecord | undefined {
  if (body === undefined || body === null) return undefined;
  return parseWith(stateSchema, body, 'state');
}

const updateSessionSchema = z.object({ stateDelta: stateSchema });

/** ADK's UpdateSessionRequest `{stateDelta}`. */
export function parseUpdateSession(body: JsonValue | undefined): StateRecord {
  return parseWith(updateSessionSchema, convertAdkFields(body ?? null, UPDATE_SESSION_SHAPE)).stateDelta;
}
