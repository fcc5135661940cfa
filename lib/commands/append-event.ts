import { z } from 'zod';
import { attempt, invalid, type ActionResult } from './result';
import { APP_KEYS_WRITE, forbidden } from '../auth/errors';
import { roleForStateKeys } from '../auth/policy';
import { hasRole, type Role } from '../auth/roles';
import { newId } from '../session-service/events';
import type { AppendOptions, AppendResult, SessionRef, SessionStore } from '../session-service/store';
import type { NewEvent, Part } from '../session-service/types';
import { spellingsOfText } from '../session-service/value-spelling';
import { parseDeltaText, parseObjectText } from '../validation/json-text';
import { formatBytes, MAX_REVISION, MAX_VALUE_BYTES } from '../validation/limits';
import { EMPTY_EVENT_MESSAGE } from '../validation/messages';
import { fieldErrorsOf, idSchema, nameSchema } from '../validation/schemas';
import { hasLoneSurrogate, UNPAIRED_SURROGATE_MESSAGE } from '../validation/text';

/** A name stored in its own column (see nameSchema), or blank for "generate one". */
const optionalName = z
  .string({ error: 'must be a string' })
  .trim()
  .pipe(z.union([z.literal(''), nameSchema]))
  .optional();

const callSchema = z.object({
  name: z.string({ error: 'must be a string' }).trim().min(1, 'needs a function name').pipe(nameSchema),
  /** Ties a call to its response; a call without one gets one generated. */
  id: optionalName,
  /** JSON object text: the call's args or the response. Blank means `{}`. */
  json: z.string({ error: 'must be a string' }).max(MAX_VALUE_BYTES, 'is too long'),
});

export const appendEventInput = z.object({
  appName: idSchema,
  userId: idSchema,
  sessionId: idSchema,
  /** The revision the page showed; a newer one in storage means someone else appended. */
  revision: z
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .nonnegative('must not be negative')
    .max(MAX_REVISION, `must be at most ${MAX_REVISION}`),
  author: z.string({ error: 'must be a string' }).trim().pipe(nameSchema).default('user'),
  /** Blank: one is generated (`e-<uuid>`, as ADK names them). */
  invocationId: optionalName,
  text: z
    .string({ error: 'must be a string' })
    .max(MAX_VALUE_BYTES, `is over the ${formatBytes(MAX_VALUE_BYTES)} limit (${MAX_VALUE_BYTES.toLocaleString('en')} characters)`)
    // As the API refuses it: what is stored would not be what was sent.
    .refine((text) => !hasLoneSurrogate(text), UNPAIRED_SURROGATE_MESSAGE)
    .optional(),
  functionCall: callSchema.optional(),
  functionResponse: callSchema.optional(),
  /** JSON object text. Blank means no state change. */
  stateDelta: z
    .string({ error: 'must be a string' })
    .max(MAX_VALUE_BYTES, `is over the ${formatBytes(MAX_VALUE_BYTES)} limit (${MAX_VALUE_BYTES.toLocaleString('en')} characters)`)
    .default(''),
});

export type AppendEventInput = z.input<typeof appendEventInput>;

/** The event as stored (without its temp: keys) and the session's revision after it: what the page must send next. */
export type AppendEventOutput = AppendResult;

/** ADK records a tool's response with role `user`, the model's turns with `model`. */
function roleOf(author: string, parts: Part[]): 'user' | 'model' {
  if (author === 'user') return 'user';
  return parts.every((part) => part.functionResponse !== undefined) ? 'user' : 'model';
}

export interface AppendEventContext extends Pick<AppendOptions, 'actor'> {
  /** The caller's role: app: keys in the delta need admin (lib/auth/policy.ts). */
  role: Role;
}

/** Appends one event when the caller's role may write the keys of its delta; `expectedRevision` makes it a compare-and-swap. */
export async function appendCommand(
  store: SessionStore,
  ref: SessionRef,
  event: NewEvent,
  { role, ...options }: AppendEventContext & Pick<AppendOptions, 'expectedRevision' | 'spellings'>,
): Promise<ActionResult<AppendResult>> {
  const needed = roleForStateKeys(Object.keys(event.actions?.stateDelta ?? {}));
  if (!hasRole(role, needed)) {
    const { message } = forbidden(needed, APP_KEYS_WRITE);
    return { ok: false, code: 'FORBIDDEN', message, fieldErrors: { stateDelta: message } };
  }
  return attempt(() => store.append(ref, event, options));
}

/** Validates a dashboard event form and appends it, guarded by the revision the page showed. */
export async function appendEventCommand(
  service: SessionStore,
  raw: unknown,
  { role, ...options }: AppendEventContext,
): Promise<ActionResult<AppendEventOutput>> {
  const parsed = appendEventInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const input = parsed.data;

  const errors: Record<string, string> = {};
  const delta = parseDeltaText(input.stateDelta);
  if (!delta.ok) errors.stateDelta = delta.message;
  const parts: Part[] = [];
  if (input.text?.trim()) parts.push({ text: input.text });
  const callId = input.functionCall ? input.functionCall.id || `adk-${newId()}` : undefined;
  if (input.functionCall) {
    const args = parseObjectText(input.functionCall.json);
    if (args.ok) parts.push({ functionCall: { id: callId, name: input.functionCall.name, args: args.value } });
    else errors['functionCall.json'] = args.message;
  }
  if (input.functionResponse) {
    const response = parseObjectText(input.functionResponse.json);
    // A response in the same event as its call answers that call.
    const responseId = input.functionResponse.id || callId;
    const id = responseId ? { id: responseId } : {};
    if (response.ok) parts.push({ functionResponse: { ...id, name: input.functionResponse.name, response: response.value } });
    else errors['functionResponse.json'] = response.message;
  }
  if (!delta.ok || Object.keys(errors).length > 0) return invalid(errors);
  if (parts.length === 0 && Object.keys(delta.value).length === 0) return invalid({ form: EMPTY_EVENT_MESSAGE }, EMPTY_EVENT_MESSAGE);
  const ref = { appName: input.appName, userId: input.userId, sessionId: input.sessionId };
  const event: NewEvent = {
    author: input.author,
    invocationId: input.invocationId || `e-${newId()}`,
    ...(parts.length > 0 ? { content: { role: roleOf(input.author, parts), parts } } : {}),
    actions: { stateDelta: delta.value },
  };
  // The delta as typed: a float written `2.0` is stored `2.0`.
  const spellings = spellingsOfText(input.stateDelta);
  return appendCommand(service, ref, event, { role, ...options, expectedRevision: input.revision, ...(spellings ? { spellings } : {}) });
}
