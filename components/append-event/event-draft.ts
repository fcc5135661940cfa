// The append-event form's fields and their checks in the browser. The server
// action checks the same things again (lib/commands/append-event.ts) with the
// same parsers, so the messages match.
import type { AppendEventInput } from '@/lib/commands/append-event';
import type { SessionRef } from '@/lib/session-service/store';
import { parseDeltaText, parseObjectText } from '@/lib/validation/json-text';
import { MAX_ID_LENGTH, MAX_VALUE_BYTES } from '@/lib/validation/limits';
import { EMPTY_EVENT_MESSAGE } from '@/lib/validation/messages';

export interface CallFields {
  enabled: boolean;
  name: string;
  id: string;
  /** JSON object text: the call's args, or the response. */
  json: string;
}

export interface EventDraft {
  author: string;
  invocationId: string;
  text: string;
  functionCall: CallFields;
  functionResponse: CallFields;
  stateDelta: string;
}

/** Field paths as the server action names them (`functionCall.json`), plus `form`. */
export type EventErrors = Partial<Record<string, string>>;

const blankCall = (): CallFields => ({ enabled: false, name: '', id: '', json: '' });

export function blankDraft(author = 'user'): EventDraft {
  return { author, invocationId: '', text: '', functionCall: blankCall(), functionResponse: blankCall(), stateDelta: '' };
}

/**
 * `e-<uuid>`, as ADK names invocations. crypto.randomUUID exists only in
 * secure contexts (https, localhost); a console opened over plain http on
 * another host still needs ids.
 */
export function newInvocationId(): string {
  if (typeof crypto.randomUUID === 'function') return `e-${crypto.randomUUID()}`;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `e-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function deltaError(text: string): string | null {
  const parsed = parseDeltaText(text);
  return parsed.ok ? null : parsed.message;
}

export function objectError(text: string): string | null {
  const parsed = parseObjectText(text);
  return parsed.ok ? null : parsed.message;
}

function nameError(name: string, what: string): string | null {
  if (name.trim() === '') return what;
  return name.trim().length > MAX_ID_LENGTH ? `must be at most ${MAX_ID_LENGTH} characters` : null;
}

/** Everything wrong with the draft, by field path; empty when it can be sent. */
export function draftErrors(draft: EventDraft): EventErrors {
  const errors: EventErrors = {};
  const author = nameError(draft.author, 'must not be empty');
  if (author) errors.author = author;
  if (draft.invocationId.trim().length > MAX_ID_LENGTH) errors.invocationId = `must be at most ${MAX_ID_LENGTH} characters`;
  if (draft.text.length > MAX_VALUE_BYTES) errors.text = `is longer than ${MAX_VALUE_BYTES} characters`;
  for (const field of ['functionCall', 'functionResponse'] as const) {
    const call = draft[field];
    if (!call.enabled) continue;
    const name = nameError(call.name, 'needs a function name');
    if (name) errors[`${field}.name`] = name;
    const json = objectError(call.json);
    if (json) errors[`${field}.json`] = json;
  }
  const delta = parseDeltaText(draft.stateDelta);
  if (!delta.ok) errors.stateDelta = delta.message;
  const hasContent = draft.text.trim() !== '' || draft.functionCall.enabled || draft.functionResponse.enabled;
  const changesState = delta.ok && Object.keys(delta.value).length > 0;
  if (Object.keys(errors).length === 0 && !hasContent && !changesState) errors.form = EMPTY_EVENT_MESSAGE;
  return errors;
}

/** The server action's input for this draft. */
export function actionInput(session: SessionRef, revision: number, draft: EventDraft): AppendEventInput {
  const call = (fields: CallFields) =>
    fields.enabled ? { name: fields.name, json: fields.json, ...(fields.id.trim() ? { id: fields.id } : {}) } : undefined;
  return {
    ...session,
    revision,
    author: draft.author,
    invocationId: draft.invocationId,
    text: draft.text,
    functionCall: call(draft.functionCall),
    functionResponse: call(draft.functionResponse),
    stateDelta: draft.stateDelta,
  };
}
