// The contents of the edit dialog, kept by the table so they survive closing
// the dialog while the save is in flight, and come back if the server refuses.
import type { ActionFailure } from '@/lib/commands/result';
import type { JsonValue } from '@/lib/session-service/types';
import { tierKey, type TierKey } from '@/lib/validation/tier-key';
import { parseJsonText, valueProblem } from '@/lib/validation/json-text';
import { MAX_REASON_LENGTH } from '@/lib/validation/limits';

export type EditMode = 'add' | 'edit' | 'remove';

export interface DraftErrors {
  key?: string;
  value?: string;
  reason?: string;
}

export interface EditDraft {
  mode: EditMode;
  /** The key within its tier (no prefix). */
  key: string;
  /** JSON text of the new value (unused when removing). */
  valueText: string;
  reason: string;
  step: 'form' | 'confirm';
  /** The person tried to go on: empty required fields now say so. */
  attempted: boolean;
  /** Errors the server returned, by field; cleared when the field changes. */
  serverErrors: DraftErrors;
  /** The server's refusal, shown at the top of the dialog. */
  refusal: ActionFailure | null;
}

export function newDraft(mode: EditMode, key = '', value?: JsonValue): EditDraft {
  return {
    mode,
    key,
    valueText: value === undefined ? '' : JSON.stringify(value, null, 2),
    reason: '',
    step: 'form',
    attempted: false,
    serverErrors: {},
    refusal: null,
  };
}

export function valueError(text: string): string | null {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return parsed.message;
  return valueProblem(parsed.value);
}

export function reasonError(reason: string): string | null {
  const trimmed = reason.trim();
  if (trimmed === '') return 'A reason is required: say why you are changing this state, e.g. a ticket number.';
  if (trimmed.length > MAX_REASON_LENGTH) return `must be at most ${MAX_REASON_LENGTH} characters`;
  return null;
}

/** The key the draft names: as typed and checked when adding (see tierKey), the existing key otherwise. */
export function draftKey(draft: EditDraft, scope: 'app' | 'user'): TierKey {
  return draft.mode === 'add' ? tierKey(scope, draft.key) : { ok: true, key: draft.key, note: null };
}

/** What is wrong with the draft, field by field (empty when it can be reviewed). */
export function draftErrors(draft: EditDraft, scope: 'app' | 'user'): DraftErrors {
  const errors: DraftErrors = {};
  const key = draftKey(draft, scope);
  if (!key.ok) errors.key = key.message;
  const value = draft.mode === 'remove' ? null : valueError(draft.valueText);
  if (value) errors.value = value;
  const reason = reasonError(draft.reason);
  if (reason) errors.reason = reason;
  return errors;
}

/** The new value (undefined removes the key); call only on a draft without errors. */
export function draftValue(draft: EditDraft): JsonValue | undefined {
  if (draft.mode === 'remove') return undefined;
  const parsed = parseJsonText(draft.valueText);
  return parsed.ok ? parsed.value : undefined;
}

/** The server's field errors (`changes.0.key`, `reason`) as the dialog's fields. */
export function serverErrorsOf(failure: ActionFailure): DraftErrors {
  const fields = failure.fieldErrors ?? {};
  const errors: DraftErrors = {};
  if (fields['changes.0.key']) errors.key = fields['changes.0.key'];
  if (fields['changes.0.value']) errors.value = fields['changes.0.value'];
  if (fields.reason) errors.reason = fields.reason;
  return errors;
}
