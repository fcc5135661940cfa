// What the whole-session operations accept, the same for the API and the
// console's actions.
import { z } from 'zod';
import { MAX_ID_LENGTH, MAX_STORED_INTEGER } from './limits';
import { freeTextProblem } from './text';
import { idSchema, nameSchema, reasonSchema } from './schemas';

export const MAX_TITLE_LENGTH = 200;
export const MAX_LABEL_LENGTH = 64;
export const MAX_LABELS = 20;

const eventNumber = z
  .number({ error: 'must be a number' })
  .int('must be a whole event number')
  .min(1, 'must be an event number from 1')
  .max(MAX_STORED_INTEGER, `must be at most ${MAX_STORED_INTEGER}`);

/** An optional id: blank means "generate one". */
const optionalId = z
  .string({ error: 'must be a string' })
  .trim()
  .pipe(z.union([z.literal(''), idSchema]))
  .optional();

export const forkInput = z.object({
  atSeq: eventNumber,
  sessionId: optionalId,
});

export const rewindInput = z.object({
  rewindBeforeInvocationId: z.string({ error: 'must be a string' }).trim().min(1, 'is required').max(MAX_ID_LENGTH).pipe(nameSchema),
});

const labelSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_LABEL_LENGTH, `must be at most ${MAX_LABEL_LENGTH} characters`)
  .refine((label) => !/[\s,]/.test(label), 'must be one word (no spaces or commas)');

const titleSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .max(MAX_TITLE_LENGTH, `must be at most ${MAX_TITLE_LENGTH} characters`)
  .superRefine((text, ctx) => {
    const problem = freeTextProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const metaInput = z
  .object({
    /** null or blank clears it. */
    title: titleSchema.nullable().optional(),
    labels: z.array(labelSchema).max(MAX_LABELS, `at most ${MAX_LABELS} labels`).optional(),
  })
  .refine((edit) => edit.title !== undefined || edit.labels !== undefined, 'give a title or labels');

/** Labels typed as one line: separated by commas or spaces. */
export function splitLabels(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((label) => label.trim())
    .filter(Boolean);
}

const timeSeconds = z.number({ error: 'must be a number of seconds since the epoch' }).finite().nonnegative();

export const pruneInput = z.discriminatedUnion(
  'target',
  [
    z.object({ target: z.literal('session') }),
    z.object({ target: z.literal('invocation'), invocationId: nameSchema }),
    z.object({ target: z.literal('eventsBefore'), before: timeSeconds }),
  ],
  { error: 'target: must be session, invocation or eventsBefore' },
);

export const idlePruneInput = z.object({
  idleDays: z.number({ error: 'must be a number of days' }).positive('must be more than 0').max(100_000),
  userId: idSchema.optional(),
});

/** dryRun defaults to true: nothing is deleted unless the caller says so, and then a reason is required. */
export const pruneOptions = z
  .object({ dryRun: z.boolean({ error: 'must be true or false' }).default(true), reason: z.string().optional() })
  .superRefine((options, ctx) => {
    if (options.dryRun) return;
    const reason = reasonSchema.safeParse(options.reason ?? '');
    if (!reason.success) ctx.addIssue({ code: 'custom', path: ['reason'], message: reason.error.issues[0]?.message ?? 'is required' });
  });
