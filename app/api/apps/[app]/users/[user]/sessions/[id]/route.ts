// ADK: POST|GET|PATCH|DELETE /api/apps/{app}/users/{user}/sessions/{id}.
import { z } from 'zod';
import { readJson } from '@/lib/http/body';
import { appendOptionsFor, authorizeStateWrite } from '@/lib/http/auth';
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { sessionRefOf, type SessionParams } from '@/lib/http/params';
import { notFound } from '@/lib/http/problem';
import { parseQuery, secondsParam, storedIntegerParam } from '@/lib/http/query';
import { SESSION_NOT_FOUND } from '@/lib/session-service/errors';
import { json } from '@/lib/http/respond';
import { parseInitialState, parseUpdateSession } from '@/lib/http/schemas/session';
import { sessionJson } from '@/lib/http/serialize';
import { patchSessionState } from '@/lib/http/session-writes';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Creates the session with this id; the whole body (if any) is its initial state. */
export const POST = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const state = parseInitialState(await readJson(request, { optional: true }));
  authorizeStateWrite(principal, { state });
  const session = await (await getStore()).createSession({ ...ref, state });
  return json(sessionJson(session));
});

const getQuery = z.object({ numRecentEvents: storedIntegerParam(0).optional(), afterTimestamp: secondsParam().optional() });

/**
 * The session with merged state and every event, as ADK's route returns it;
 * `numRecentEvents` and `afterTimestamp` (seconds, inclusive) are
 * GetSessionConfig's, so an agent reads the last few events of a long session
 * without fetching all of them.
 */
export const GET = route<SessionParams>(async (request, params) => {
  const ref = sessionRefOf(params);
  const session = await (await getStore()).getSession(ref, parseQuery(request, getQuery));
  if (!session) throw notFound(SESSION_NOT_FOUND);
  return json(sessionJson(session));
});

/** Body `{stateDelta}`: appended as an event by "user" with invocation id `p-<uuid>`; returns the session. */
export const PATCH = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const stateDelta = parseUpdateSession(await readJson(request));
  authorizeStateWrite(principal, { state: stateDelta });
  return json(sessionJson(await patchSessionState(await getStore(), ref, stateDelta, appendOptionsFor(principal))));
});

/** Removes the session and its events; `200 null` whether or not it existed. */
export const DELETE = route<SessionParams>(async (_request, params) => {
  const ref = sessionRefOf(params);
  await (await getStore()).deleteSession(ref);
  return json(null);
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { PUT, OPTIONS } = otherMethods('GET', 'POST', 'PATCH', 'DELETE');
