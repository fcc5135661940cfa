// POST /api/apps/{app}/users/{user}/sessions/{id}/rewind — adk-python's Runner.rewind_async over HTTP,
// shaped as the open upstream pull requests propose it (google/adk-python#7178, #6704): the body names
// the invocation, the answer is the rewound session.
import { appendOptionsFor } from '@/lib/http/auth';
import { convertAdkFields } from '@/lib/http/adk-case';
import { readJson } from '@/lib/http/body';
import { route } from '@/lib/http/handler';
import { expectedRevisionOf } from '@/lib/http/if-match';
import { parseWith } from '@/lib/http/issues';
import { otherMethods } from '@/lib/http/methods';
import { sessionRefOf, type SessionParams } from '@/lib/http/params';
import { json } from '@/lib/http/respond';
import { sessionJson } from '@/lib/http/serialize';
import { getStore } from '@/lib/services';
import { sessionNotFound } from '@/lib/session-service/errors';
import { rewindSession } from '@/lib/session-service/rewind';
import { rewindInput } from '@/lib/validation/session-ops';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const REWIND_SHAPE = { rewindBeforeInvocationId: null };

/**
 * Body `{"rewindBeforeInvocationId": "..."}` (or `rewind_before_invocation_id`).
 * Appends a `user` event with `actions.rewindBeforeInvocationId` and the delta
 * restoring the session-scope keys; 404 for an unknown session or invocation,
 * 409 when `If-Match` names a revision the session has moved past.
 */
export const POST = route<SessionParams>(async (request, params, principal) => {
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

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
