import { z } from 'zod';
import type { JsonValue, NewEvent } from '../session-service/types';
import { MAX_ID_LENGTH } from './limits';
import { nameSchema } from './schemas';
import { nameProblem } from './text';
import { convertAdkFields, EVENT_SHAPE } from './adk-case';
import { parseWith } from './issues';
import { isJsonObject, jsonObjectSchema, stateSchema } from './json-schemas';

const MAX_BRANCH_LENGTH = 1024;
const MAX_TEXT_FIELD = 64 * 1024;
/**
 * Year 5138 in seconds. ADK timestamps are float seconds; a larger number is
 * almost surely milliseconds (adk-js's unit), which would sort the event
 * thousands of years after every other one.
 */
const MAX_TIMESTAMP_SECONDS = 1e11;

/** An id kept in its own column (event id, invocation id); empty means "fill it in". */
const columnIdSchema = z
  .string()
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`)
  .superRefine((text, ctx) => {
    const problem = nameProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const actionsSchema = z.looseObject({
  stateDelta: stateSchema.optional(),
  artifactDelta: jsonObjectSchema
    .refine((delta) => Object.values(delta).every((version) => Number.isInteger(version)), 'versions must be integers')
    .optional(),
  transferToAgent: z.string().optional(),
  escalate: z.boolean().optional(),
  skipSummarization: z.boolean().optional(),
  requestedAuthConfigs: jsonObjectSchema.optional(),
  requestedToolConfirmations: jsonObjectSchema.optional(),
});

const partSchema = z.looseObject({ text: z.string().optional() });

/** ADK's Event, camelCase; unknown fields pass (and are stored). */
const eventSchema = z.looseObject({
  id: columnIdSchema.optional(),
  invocationId: columnIdSchema.optional(),
  author: nameSchema.optional(),
  branch: z.string().max(MAX_BRANCH_LENGTH).optional(),
  timestamp: z
    .number()
    .nonnegative('must not be negative')
    .max(MAX_TIMESTAMP_SECONDS, 'must be seconds since the epoch, and this looks like milliseconds')
    .optional(),
  content: z.looseObject({ role: z.string().optional(), parts: z.array(partSchema).optional() }).optional(),
  partial: z.boolean().optional(),
  turnComplete: z.boolean().optional(),
  errorCode: z.string().max(MAX_TEXT_FIELD).optional(),
  errorMessage: z.string().max(MAX_TEXT_FIELD).optional(),
  interrupted: z.boolean().optional(),
  longRunningToolIds: z.array(z.string()).optional(),
  customMetadata: jsonObjectSchema.optional(),
  usageMetadata: jsonObjectSchema.optional(),
  actions: actionsSchema.optional(),
});

/** Known optional fields where ADK's pydantic models take null as "absent"; ADK's JSON output leaves them out. */
function withoutNullFields(event: Record<string, JsonValue>, names: readonly string[]): void {
  for (const name of names) if (event[name] === null && Object.hasOwn(event, name)) delete event[name];
}

/**
 * An ADK event from a request (camelCase or snake_case), validated. Returns
 * the converted input itself, not zod's copy, so unknown fields and every
 * key inside opaque maps survive exactly.
 */
export function parseEvent(raw: JsonValue, root = ''): NewEvent {
  const event = convertAdkFields(raw, EVENT_SHAPE, root);
  if (isJsonObject(event)) {
    withoutNullFields(event, Object.keys(EVENT_SHAPE));
    const actions = event.actions;
    if (isJsonObject(actions)) withoutNullFields(actions, ['transferToAgent', 'escalate', 'skipSummarization']);
  }
  parseWith(eventSchema, event, root);
  return event as NewEvent;
}
