// The console's whole-session operations: validated, run on the store,
// answered as values the forms show.
import { z } from 'zod';
import { capability, type PruneCount, type PruneTarget, type SessionMeta } from '../session-service/operations';
import { rewindSession, type RewindOutcome } from '../session-service/rewind';
import type { SessionRef, SessionStore } from '../session-service/store';
import type { SessionSummary } from '../session-service/types';
import { fieldErrorsOf, idSchema } from '../validation/schemas';
import { forkInput, idlePruneInput, metaInput, pruneInput, pruneOptions, rewindInput, splitLabels } from '../validation/session-ops';
import { importSessionFile, MAX_IMPORT_BYTES, type ImportReport } from './import-sessions';
import { failure, invalid, type ActionResult } from './result';

const refSchema = z.object({ appName: idSchema, userId: idSchema, sessionId: idSchema });

async function run<T>(work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    return failure(error);
  }
}

/** `sessionId` is the source; `forkId` the new session's id (blank: generated). */
export const forkCommandInput = refSchema.extend({ atSeq: forkInput.shape.atSeq, forkId: forkInput.shape.sessionId });
export type ForkCommandInput = z.input<typeof forkCommandInput>;

export async function forkCommand(store: SessionStore, actor: string, raw: unknown): Promise<ActionResult<SessionSummary>> {
  const parsed = forkCommandInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { atSeq, forkId, ...source } = parsed.data;
  return run(() => capability(store, 'forkSession')({ source, atSeq, ...(forkId ? { sessionId: forkId } : {}) }, { actor }));
}

export const rewindCommandInput = refSchema.extend(rewindInput.shape).extend({
  /** The revision the page showed: a session that moved on since is refused, not rewound from another state. */
  revision: z.number().int().nonnegative().optional(),
});
export type RewindCommandInput = z.input<typeof rewindCommandInput>;

export async function rewindCommand(store: SessionStore, actor: string | undefined, raw: unknown): Promise<ActionResult<RewindOutcome>> {
  const parsed = rewindCommandInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { rewindBeforeInvocationId, revision, ...ref } = parsed.data;
  return run(() =>
    rewindSession(store, ref, rewindBeforeInvocationId, {
      ...(actor === undefined ? {} : { actor }),
      ...(revision === undefined ? {} : { expectedRevision: revision }),
    }),
  );
}

export const metaCommandInput = refSchema.extend({
  title: z.string({ error: 'must be a string' }),
  /** As typed: separated by commas or spaces. */
  labels: z.string({ error: 'must be a string' }),
});
export type MetaCommandInput = z.input<typeof metaCommandInput>;

export async function metaCommand(store: SessionStore, actor: string, raw: unknown): Promise<ActionResult<SessionMeta>> {
  const parsed = metaCommandInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { title, labels, ...ref } = parsed.data;
  const edit = metaInput.safeParse({ title, labels: splitLabels(labels) });
  if (!edit.success) return invalid(fieldErrorsOf(edit.error));
  return run(() => capability(store, 'setSessionMeta')(ref, edit.data, { actor }));
}

const sessionPruneInput = z.intersection(refSchema, z.intersection(pruneInput, pruneOptions));
const appPruneInput = z.intersection(z.object({ appName: idSchema }), z.intersection(idlePruneInput, pruneOptions));
export type PruneCommandInput = z.input<typeof sessionPruneInput> | z.input<typeof appPruneInput>;

/** A session's deletion (or its events'), or an app's idle sessions; a dry run unless `dryRun: false`. */
export async function pruneCommand(store: SessionStore, actor: string, raw: unknown): Promise<ActionResult<PruneCount>> {
  const isApp = typeof raw === 'object' && raw !== null && 'idleDays' in raw;
  if (isApp) {
    const parsed = appPruneInput.safeParse(raw);
    if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
    const { appName, idleDays, userId, dryRun, reason } = parsed.data;
    const target: PruneTarget = { kind: 'idleSessions', appName, idleDays, ...(userId === undefined ? {} : { userId }) };
    return run(() => capability(store, 'prune')(target, { actor, dryRun, ...(reason === undefined ? {} : { reason }) }));
  }
  const parsed = sessionPruneInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { appName, userId, sessionId, dryRun, reason } = parsed.data;
  const ref: SessionRef = { appName, userId, sessionId };
  const input = parsed.data;
  const target: PruneTarget =
    input.target === 'session'
      ? { kind: 'session', ref }
      : input.target === 'invocation'
        ? { kind: 'invocation', ref, invocationId: input.invocationId }
        : { kind: 'eventsBefore', ref, before: input.before };
  return run(() => capability(store, 'prune')(target, { actor, dryRun, ...(reason === undefined ? {} : { reason }) }));
}

export const importCommandInput = z.object({
  appName: idSchema,
  userId: idSchema.optional(),
  text: z.string({ error: 'must be the file as text' }).max(MAX_IMPORT_BYTES, `is larger than ${MAX_IMPORT_BYTES} bytes`),
  dryRun: z.boolean(),
  newIds: z.boolean().optional(),
});
export type ImportCommandInput = z.input<typeof importCommandInput>;

export async function importCommand(store: SessionStore, actor: string, raw: unknown): Promise<ActionResult<ImportReport>> {
  const parsed = importCommandInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { appName, userId, text, dryRun, newIds } = parsed.data;
  return run(() =>
    importSessionFile(store, text, { appName, ...(userId === undefined ? {} : { userId }) }, { actor, dryRun, newIds: newIds ?? false }),
  );
}
