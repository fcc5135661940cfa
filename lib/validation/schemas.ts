import { z } from 'zod';
import { MAX_ID_LENGTH, MAX_REASON_LENGTH } from './limits';

/** An app, user or session id: what ADK accepts, minus what breaks URLs and terminals. */
export const idSchema = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`)
  // eslint-disable-next-line no-control-regex
  .refine((id) => !/[\u0000-\u001f\u007f]/.test(id), 'must not contain control characters');

export const reasonSchema = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required: say why you are changing this state')
  .max(MAX_REASON_LENGTH, `must be at most ${MAX_REASON_LENGTH} characters`);

/** Zod issues as one message per field path ("functionCall.args"), first issue wins. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.join('.') || 'form';
    errors[path] ??= issue.message;
  }
  return errors;
}
