// ADK: GET|POST /api/apps/{app}/users/{user}/sessions — list a user's sessions; create one (optionally with events).
import { readJson } from '@/lib/http/body';
import { appendOptionsFor, authorizeStateWrite } from '@/lib/http/auth';
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { userRefOf, type UserParams } from '@/lib/http/params';
import { json } from '@/lib/http/respond';
import { parseCreateSession } from '@/lib/http/schemas/session';
import { sessionJson } from '@/lib/http/serialize';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Sessions with merged state and `events: []`. */
export const GET = route<UserParams>(async (_request, params) => {
  const owner = userRefOf(params);
  const { sessions } = await (await getStore()).listSessions(owner);
  return json(sessions.map(sessionJson));
});

/**
 * Body `{sessionId?, state?, events?}` (or none); 409 `Session already exists: <id>`.
 * The session and its events are written in one transaction: all or nothing.
 */
export const POST = route<UserParams>(async (request, params, principal) => {
  const owner = userRefOf(params);
  const body = parseCreateSession(await readJson(request, { optional: true }));
  authorizeStateWrite(principal, body);
  const created = await (await getStore()).createSession({ ...owner, ...body }, appendOptionsFor(principal));
  return json(sessionJson(created));
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET', 'POST');
