// Whole-session operations: fork, Statehouse's own fields (title, labels, fork links), retention (prune), and ADK's rewind.
// Each parses the request and runs the command the console's actions run (lib/commands/session-ops.ts).
import { z } from 'zod';
import { accountActor } from '../../auth/principal';
import { forkCommand, metaCommand, pruneIdleCommand, pruneSessionCommand, rewindCommand } from '../../commands/session-ops';
import { getStore } from '../../services';
import { sessionNotFound } from '../../session-service/errors';
import { capability } from '../../session-service/operations';
import type { SessionRef, SessionStore } from '../../session-service/store';
import { forkInput, idlePruneInput, metaInput, pruneInput, pruneOptions, rewindInput } from '../../validation/session-ops';
import { convertAdkFields } from '../../validation/adk-case';
import { readJson } from '../body';
import { resultOf } from '../errors';
import { route } from '../handler';
import { expectedRevisionOf } from '../if-match';
import { parseWith } from '../../validation/issues';
import { appNameOf, sessionRefOf, type AppParams, type SessionParams } from '../params';
import { json } from '../respond';
import { sessionJson } from '../serialize';

/** The session as ADK's routes answer it, read after the command that changed it. */
async function sessionResponse(store: SessionStore, ref: SessionRef): Promise<Response> {
  const session = await store.getSession(ref);
  if (!session) throw sessionNotFound(ref.sessionId);
  return json(sessionJson(session));
}

const forkBody = forkInput.extend({ reason: z.string().max(500).optional() });

/**
 * Body `{"atSeq": N, "sessionId"?: "..."}`: a new session of the same user, events 1..N
 * copied, the session state as it stood right after event N; app and user state are shared
 * with the source, not copied. Returns the new session (ADK's shape).
 */
export const forkSession = route<SessionParams>(async (request, params, principal) => {
  const source = sessionRefOf(params);
  const { atSeq, sessionId: forkId, reason } = parseWith(forkBody, (await readJson(request)) ?? null);
  const store = await getStore();
  const fork = resultOf(await forkCommand(store, principal.name, { ...source, atSeq, forkId, reason }));
  return sessionResponse(store, { ...source, sessionId: fork.id });
});

/** `{"title", "labels", "forkedFrom": {"sessionId", "atSeq"} | null, "forks": [...]}`; 404 for an unknown session. ADK's session shape stays as it is; these live beside it. */
export const getSessionMeta = route<SessionParams>(async (_request, params) => {
  const ref = sessionRefOf(params);
  const meta = await capability(await getStore(), 'getSessionMeta')(ref);
  if (!meta) throw sessionNotFound(ref.sessionId);
  return json(meta);
});

const metaBody = z.intersection(metaInput, z.object({ reason: z.string().max(500).optional() }));

/** Body `{"title"?: string | null, "labels"?: string[]}`: what is given replaces what was; returns the meta. */
export const editSessionMeta = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const { title, labels, reason } = parseWith(metaBody, (await readJson(request)) ?? null);
  return json(resultOf(await metaCommand(await getStore(), principal.name, { ...ref, title, labels, reason })));
});

/**
 * Body `{"target": "session" | "invocation" | "eventsBefore", "invocationId"?, "before"?,
 * "dryRun": true | false, "reason"}`. Answers `{"dryRun", "sessions", "events"}`: what would be
 * deleted, or what was. State is not rewound by deleting events. Admin only; a dry run (the default) deletes nothing.
 */
export const pruneSession = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const raw = (await readJson(request)) ?? null;
  const input = { ...parseWith(pruneInput, raw), ...parseWith(pruneOptions, raw) };
  const count = resultOf(await pruneSessionCommand(await getStore(), principal.name, { ...input, ...ref }));
  return json({ dryRun: input.dryRun, ...count });
});

/** Body `{"idleDays": N, "userId"?, "dryRun": true | false, "reason"}`: the app's sessions (or one user's) idle for N days; answers `{"dryRun", "sessions", "events"}`. Admin only. */
export const pruneIdleSessions = route<AppParams>(async (request, params, principal) => {
  const appName = appNameOf(params);
  const raw = (await readJson(request)) ?? null;
  const input = { ...parseWith(idlePruneInput, raw), ...parseWith(pruneOptions, raw) };
  const count = resultOf(await pruneIdleCommand(await getStore(), principal.name, { ...input, appName }));
  return json({ dryRun: input.dryRun, ...count });
});

const REWIND_SHAPE = { rewindBeforeInvocationId: null };

/**
 * adk-python's Runner.rewind_async over HTTP, shaped as the open upstream pull requests propose
 * it (google/adk-python#7178, #6704). Body `{"rewindBeforeInvocationId": "..."}` (or
 * `rewind_before_invocation_id`). Appends a `user` event with `actions.rewindBeforeInvocationId`
 * and the delta restoring the session-scope keys; 404 for an unknown session or invocation,
 * 409 when `If-Match` names a revision the session has moved past. Answers the rewound session.
 */
export const rewind = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const revision = expectedRevisionOf(request);
  const { rewindBeforeInvocationId } = parseWith(rewindInput, convertAdkFields((await readJson(request)) ?? null, REWIND_SHAPE));
  const store = await getStore();
  resultOf(await rewindCommand(store, accountActor(principal), { ...ref, rewindBeforeInvocationId, revision }));
  return sessionResponse(store, ref);
});
