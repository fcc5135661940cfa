import { z } from 'zod';
import { MAX_ID_LENGTH, MAX_REASON_LENGTH } from './limits';
import { freeTextProblem, idProblem, nameProblem } from './text';

/** A refinement from a "why not" function: its message names the problem. */
function checkedBy(problemOf: (text: string) => string | null) {
  return (text: string, ctx: z.core.$RefinementCtx<string>) => {
    const problem = problemOf(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };
}

/** Text a person types (a note, a view's name): trimmed, required, at most `max` characters, refused where `problemOf` says why. */
export function typedText(max: number, whatToWrite: string, problemOf: (text: string) => string | null) {
  return z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, `is required: ${whatToWrite}`)
    .max(max, `must be at most ${max} characters`)
    .superRefine(checkedBy(problemOf));
}

/** An app, user or session id: what ADK accepts, minus what breaks URLs, terminals and storage (see idProblem). */
export const idSchema = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`)
  .superRefine(checkedBy(idProblem));

/** A name stored in its own column but never part of a URL: an event's author, an edit's actor. */
export const nameSchema = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`)
  .superRefine(checkedBy(nameProblem));

export const reasonSchema = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required: say why you are changing this state')
  .max(MAX_REASON_LENGTH, `must be at most ${MAX_REASON_LENGTH} characters`)
  .superRefine(checkedBy(freeTextProblem));

/** Zod issues as one message per field path ("functionCall.args"), first issue wins. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.join('.') || 'form';
    errors[path] ??= issue.message;
  }
  return errors;
}
