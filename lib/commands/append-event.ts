import { z } from 'zod';
import { invalid, failure, type ActionResult } from '../actions/result';
import { newId } from '../session-service/events';
import type { SessionService } from '../session-service/service';
import type { Event, JsonObject, Part, Session } from '../session-service/types';
import { parseJsonText, parseStateText } from '../validation/json-text';
import { MAX_ID_LENGTH, MAX_VALUE_BYTES } from '../validation/limits';
import { fieldErrorsOf, idSchema } from '../validation/schemas';

const callSchema = z.object({
  name: z.string().trim().min(1, 'needs a function name').max(MAX_ID_LENGTH),
  /** JSON object text. */
  json: z.string().max(MAX_VALUE_BYTES),
});

export const appendEventInput = z.object({
  appName: idSchema,
  userId: idSchema,
  sessionId: idSchema,
  /** The revision the page showed; a newer one in storage means someone else appended. */
  revision: z.number({ error: 'must be a number' }).int().nonnegative(),
  author: z.string().trim().min(1, 'must not be empty').max(MAX_ID_LENGTH).default('user'),
  invocationId: z.string().trim().max(MAX_ID_LENGTH).optional(),
  text: z.string().max(MAX_VALUE_BYTES, 'is too long').optional(),
  functionCall: callSchema.optional(),
  functionResponse: callSchema.optional(),
  /** JSON object text. */
  stateDelta: z.string().max(MAX_VALUE_BYTES, 'is too long').default('{}'),
});

export type AppendEventInput = z.input<typeof appendEventInput>;

export interface AppendEventOutput {
  event: Event;
  revision: number;
}

type JsonField = { ok: true; value: JsonObject } | { ok: false; message: string };

function jsonObjectField(text: string): JsonField {
  if (text.trim() === '') return { ok: true, value: {} };
  const parsed = parseJsonText(text);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: 'must be a JSON object' };
  }
  return { ok: true, value };
}

/** Validates a dashboard event form and appends it, guarded by the revision the page showed. */
export async function appendEventCommand(
  service: SessionService,
  raw: unknown,
): Promise<ActionResult<AppendEventOutput>> {
  const parsed = appendEventInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const input = parsed.data;

  const errors: Record<string, string> = {};
  const delta = parseStateText(input.stateDelta.trim() === '' ? '{}' : input.stateDelta);
  if (!delta.ok) errors.stateDelta = delta.message;
  const parts: Part[] = [];
  if (input.text?.trim()) parts.push({ text: input.text });
  if (input.functionCall) {
    const args = jsonObjectField(input.functionCall.json);
    if (args.ok) parts.push({ functionCall: { id: newId(), name: input.functionCall.name, args: args.value } });
    else errors['functionCall.json'] = args.message;
  }
  if (input.functionResponse) {
    const response = jsonObjectField(input.functionResponse.json);
    if (response.ok) {
      parts.push({ functionResponse: { name: input.functionResponse.name, response: response.value } });
    } else errors['functionResponse.json'] = response.message;
  }
  if (Object.keys(errors).length > 0 || !delta.ok) return invalid(errors);

  const session: Session = {
    id: input.sessionId,
    appName: input.appName,
    userId: input.userId,
    state: {},
    events: [],
    lastUpdateTime: 0,
    revision: input.revision,
  };
  try {
    const event = await service.appendEvent(session, {
      author: input.author,
      invocationId: input.invocationId || `e-${newId()}`,
      ...(parts.length > 0 ? { content: { role: input.author === 'user' ? 'user' : 'model', parts } } : {}),
      actions: { stateDelta: delta.value },
    });
    return { ok: true, data: { event, revision: session.revision } };
  } catch (error) {
    return failure(error);
  }
}
