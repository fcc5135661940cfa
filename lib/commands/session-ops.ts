// The whole-session operations, for the console's actions and the API's
// routes alike: validated, run on the store, a domain refusal answered as a
// value (the forms show it; a route answers it with its status).
import { z } from 'zod';
import { capability, type PruneCount, type PruneTarget, type SessionMeta } from '../session-service/operations';
import { rewindSession, type RewindOutcome } from '../session-service/rewind';
import type { SessionRef, SessionStore } from '../session-service/store';
import type { SessionSummary } from '../session-service/types';
import { fieldErrorsOf, idSchema } from '../validation/schemas';
import { forkInput, idlePruneInput, metaInput, pruneInput, pruneOptions, rewindInput, splitLabels } from '../validation/session-ops';
import { importSessionFile, MAX_IMPORT_BYTES, type ImportReport } from './import-sessions';
import { attempt, invalid, type ActionResult } from './result';

const refSchema = z.object({ appName: idSchema, userId: idSchema, sessionId: idSchema });

const optionalReason = z.object({ reason: z.string({ error: 'must be a string' }).max(500).optional() });
const reasonOf = (reason: string | undefined) => (reason === undefined ? {} : { reason });

/** `sessionId` is the source; `forkId` the new session's id (blank: generated). */
export const forkCommandInput = refSchema
  .extend({ atSeq: forkInput.shape.atSeq, forkId: forkInput.shape.sessionId })
  .extend(optionalReason.shape);
export type ForkCommandInput = z.input<typeof forkCommandInput>;

export async function forkCommand(store: SessionStore, actor: string, raw: unknown): Promise<ActionResult<SessionSummary>> {
  const parsed = forkCommandInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { atSeq, forkId, reason, ...source } = parsed.data;
  return attempt(() =>
    capability(store, 'forkSession')({ source, atSeq, ...(forkId ? { sessionId: forkId } : {}) }, { actor, ...reasonOf(reason) }),
  );
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
  return attempt(() =>
    rewindSession(store, ref, rewindBeforeInvocationId, {
      ...(actor === undefined ? {} : { actor }),
      ...(revision === undefined ? {} : { expectedRevision: revision }),
    }),
  );
}

export const metaCommandInput = refSchema.extend(optionalReason.shape).extend({
  /** null or blank clears it; absent leaves it. */
  title: z.string({ error: 'must be a string' }).nullable().optional(),
  /** A list, or as typed in one line: separated by commas or spaces. Absent leaves them. */
  labels: z.union([z.string().transform(splitLabels), z.array(z.unknown())], { error: 'must be a list of labels' }).optional(),
});
export type MetaCommandInput = z.input<typeof metaCommandInput>;

/** What is given replaces what was. */
export async function metaCommand(store: SessionStore, actor: string, raw: unknown): Promise<ActionResult<SessionMeta>> {
  const parsed = metaCommandInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { title, labels, reason, ...ref } = parsed.data;
  const edit = metaInput.safeParse({ ...(title === undefined ? {} : { title }), ...(labels === undefined ? {} : { labels }) });
  if (!edit.success) return invalid(fieldErrorsOf(edit.error));
  return attempt(() => capability(store, 'setSessionMeta')(ref, edit.data, { actor, ...reasonOf(reason) }));
}

const sessionPruneInput = z.intersection(refSchema, z.intersection(pruneInput, pruneOptions));
const appPruneInput = z.intersection(z.object({ appName: idSchema }), z.intersection(idlePruneInput, pruneOptions));
export type SessionPruneInput = z.input<typeof sessionPruneInput>;
export type IdlePruneInput = z.input<typeof appPruneInput>;
export type PruneCommandInput = SessionPruneInput | IdlePruneInput;

/** The session's deletion, or its events' (one invocation's, or those before a time); a dry run unless `dryRun: false`. */
export async function pruneSessionCommand(store: SessionStore, actor: string, raw: unknown): Promise<ActionResult<PruneCount>> {
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
  return attempt(() => capability(store, 'prune')(target, { actor, dryRun, ...reasonOf(reason) }));
}

/** The app's sessions (or one user's) idle for `idleDays`; a dry run unless `dryRun: false`. */
export async function pruneIdleCommand(store: SessionStore, actor: string, raw: unknown): Promise<ActionResult<PruneCount>> {
  const parsed = appPruneInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { appName, idleDays, userId, dryRun, reason } = parsed.data;
  const target: PruneTarget = { kind: 'idleSessions', appName, idleDays, ...(userId === undefined ? {} : { userId }) };
  return attempt(() => capability(store, 'prune')(target, { actor, dryRun, ...reasonOf(reason) }));
}

const isIdlePrune = (raw: unknown) => typeof raw === 'object' && raw !== null && 'idleDays' in raw;

/** The schema of either prune, by its input: `idleDays` names the idle sessions of an app. */
export const pruneCommandInput = (raw: unknown) => (isIdlePrune(raw) ? appPruneInput : sessionPruneInput);

/** Either prune, by its input (see pruneCommandInput). */
export async function pruneCommand(store: SessionStore, actor: string, raw: unknown): Promise<ActionResult<PruneCount>> {
  return isIdlePrune(raw) ? pruneIdleCommand(store, actor, raw) : pruneSessionCommand(store, actor, raw);
}

export const importCommandInput = z.object({
  appName: idSchema,
  userId: idSchema.optional(),
  text: z.string({ error: 'must be the file as text' }).max(MAX_IMPORT_BYTES, `is larger than ${MAX_IMPORT_BYTES} bytes`),
  dryRun: z.boolean(),
  newIds: z.boolean().optional(),
  /** Write the events' app: and user: changes into the target's app and user state (else such a session is refused). */
  applySharedState: z.boolean().optional(),
  reason: z.string({ error: 'must be a string' }).max(500).optional(),
});
export type ImportCommandInput = z.input<typeof importCommandInput>;

export async function importCommand(store: SessionStore, actor: string, raw: unknown): Promise<ActionResult<ImportReport>> {
  const parsed = importCommandInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { appName, userId, text, dryRun, newIds, applySharedState, reason } = parsed.data;
  return attempt(() =>
    importSessionFile(
      store,
      text,
      { appName, ...(userId === undefined ? {} : { userId }) },
      { actor, dryRun, newIds: newIds ?? false, applySharedState: applySharedState ?? false, ...reasonOf(reason) },
    ),
  );
}
