// POST /api/apps/{app}/users/{user}/sessions/{id}/fork — a new session of the same user from events 1..atSeq.
import { z } from 'zod';
import { readJson } from '@/lib/http/body';
import { route } from '@/lib/http/handler';
import { parseWith } from '@/lib/http/issues';
import { otherMethods } from '@/lib/http/methods';
import { sessionRefOf, type SessionParams } from '@/lib/http/params';
import { json } from '@/lib/http/respond';
import { sessionJson } from '@/lib/http/serialize';
import { getStore } from '@/lib/services';
import { sessionNotFound } from '@/lib/session-service/errors';
import { capability } from '@/lib/session-service/operations';
import { forkInput } from '@/lib/validation/session-ops';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const body = forkInput.extend({ reason: z.string().max(500).optional() });

/**
 * Body `{"atSeq": N, "sessionId"?: "..."}`: events 1..N copied, the session
 * state as it stood right after event N; app and user state are shared with
 * the source, not copied. Returns the new session (ADK's shape).
 */
export const POST = route<SessionParams>(async (request, params, principal) => {
  const source = sessionRefOf(params);
  const input = parseWith(body, (await readJson(request)) ?? null);
  const store = await getStore();
  const fork = await capability(store, 'forkSession')(
    { source, atSeq: input.atSeq, ...(input.sessionId ? { sessionId: input.sessionId } : {}) },
    { actor: principal.name, reason: input.reason },
  );
  const session = await store.getSession({ ...source, sessionId: fork.id });
  if (!session) throw sessionNotFound(fork.id);
  return json(sessionJson(session));
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
