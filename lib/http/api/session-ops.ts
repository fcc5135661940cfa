// Whole-session operations: fork, Statehouse's own fields (title, labels, fork links), retention (prune), and ADK's rewind.
import { z } from 'zod';
import { getStore } from '../../services';
import { sessionNotFound } from '../../session-service/errors';
import { capability, type PruneTarget } from '../../session-service/operations';
import { rewindSession } from '../../session-service/rewind';
import { forkInput, idlePruneInput, metaInput, pruneInput, pruneOptions, rewindInput } from '../../validation/session-ops';
import { convertAdkFields } from '../adk-case';
import { appendOptionsFor } from '../auth';
import { readJson } from '../body';
import { route } from '../handler';
import { expectedRevisionOf } from '../if-match';
import { parseWith } from '../issues';
import { appNameOf, sessionRefOf, type AppParams, type SessionParams } from '../params';
import { json } from '../respond';
import { sessionJson } from '../serialize';

const forkBody = forkInput.extend({ reason: z.string().max(500).optional() });

/**
 * Body `{"atSeq": N, "sessionId"?: "..."}`: a new session of the same user, events 1..N
 * copied, the session state as it stood right after event N; app and user state are shared
 * with the source, not copied. Returns the new session (ADK's shape).
 */
export const forkSession = route<SessionParams>(async (request, params, principal) => {
  const source = sessionRefOf(params);
  const input = parseWith(forkBody, (await readJson(request)) ?? null);
  const store = await getStore();
  const fork = await capability(store, 'forkSession')(
    { source, atSeq: input.atSeq, ...(input.sessionId ? { sessionId: input.sessionId } : {}) },
    { actor: principal.name, reason: input.reason },
  );
  const session = await store.getSession({ ...source, sessionId: fork.id });
  if (!session) throw sessionNotFound(fork.id);
  return json(sessionJson(session));
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
  const input = parseWith(metaBody, (await readJson(request)) ?? null);
  const edit = {
    ...(input.title === undefined ? {} : { title: input.title }),
    ...(input.labels === undefined ? {} : { labels: input.labels }),
  };
  return json(await capability(await getStore(), 'setSessionMeta')(ref, edit, { actor: principal.name, reason: input.reason }));
});

/**
 * Body `{"target": "session" | "invocation" | "eventsBefore", "invocationId"?, "before"?,
 * "dryRun": true | false, "reason"}`. Answers `{"dryRun", "sessions", "events"}`: what would be
 * deleted, or what was. State is not rewound by deleting events. Admin only; a dry run (the default) deletes nothing.
 */
export const pruneSession = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const raw = (await readJson(request)) ?? null;
  const input = parseWith(pruneInput, raw);
  const options = parseWith(pruneOptions, raw);
  const target: PruneTarget =
    input.target === 'session'
      ? { kind: 'session', ref }
      : input.target === 'invocation'
        ? { kind: 'invocation', ref, invocationId: input.invocationId }
        : { kind: 'eventsBefore', ref, before: input.before };
  const count = await capability(await getStore(), 'prune')(target, { actor: principal.name, ...options });
  return json({ dryRun: options.dryRun, ...count });
});

/** Body `{"idleDays": N, "userId"?, "dryRun": true | false, "reason"}`: the app's sessions (or one user's) idle for N days; answers `{"dryRun", "sessions", "events"}`. Admin only. */
export const pruneIdleSessions = route<AppParams>(async (request, params, principal) => {
  const appName = appNameOf(params);
  const raw = (await readJson(request)) ?? null;
  const input = parseWith(idlePruneInput, raw);
  const options = parseWith(pruneOptions, raw);
  const count = await capability(await getStore(), 'prune')(
    { kind: 'idleSessions', appName, idleDays: input.idleDays, ...(input.userId === undefined ? {} : { userId: input.userId }) },
    { actor: principal.name, ...options },
  );
  return json({ dryRun: options.dryRun, ...count });
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
  const expectedRevision = expectedRevisionOf(request);
  const input = parseWith(rewindInput, convertAdkFields((await readJson(request)) ?? null, REWIND_SHAPE));
  const store = await getStore();
  await rewindSession(store, ref, input.rewindBeforeInvocationId, {
    ...appendOptionsFor(principal),
    ...(expectedRevision === undefined ? {} : { expectedRevision }),
  });
  const session = await store.getSession(ref);
  if (!session) throw sessionNotFound(ref.sessionId);
  return json(sessionJson(session));
});
