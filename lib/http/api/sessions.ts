// ADK's session routes: a user's sessions (list, create with events), and one session (create by id, read, patch its state, delete).
import { z } from 'zod';
import { getStore } from '../../services';
import { SESSION_NOT_FOUND } from '../../session-service/errors';
import { eventSpellingsAt, spellingsAt } from '../../session-service/value-spelling';
import { appendOptionsFor, authorizeStateWrite } from '../auth';
import { readSpelledJson } from '../body';
import { route } from '../handler';
import { revisionTag } from '../if-match';
import { sessionRefOf, userRefOf, type SessionParams, type UserParams } from '../params';
import { notFound } from '../problem';
import { pageQuery, parseQuery, secondsParam, storedIntegerParam } from '../query';
import { json, jsonChunksResponse, STREAMED_EVENTS_OVER } from '../respond';
import { parseCreateSession, parseInitialState, parseUpdateSession } from '../schemas/session';
import { sessionJson, sessionJsonChunks } from '../serialize';
import { patchSessionState } from '../session-writes';

const listQuery = z.object({ ...pageQuery, order: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional() });

/**
 * Sessions with merged state and `events: []`: all of them, as ADK's route
 * answers, or a page (`limit`, `offset`; `order` by last update, `asc` or
 * `desc`) with the user's number of sessions in `X-Total-Count`.
 */
export const listSessions = route<UserParams>(async (request, params) => {
  const owner = userRefOf(params);
  const { limit, offset, order } = parseQuery(request, listQuery);
  const { sessions, total } = await (await getStore()).listSessions({ ...owner, limit, offset, order });
  return json(sessions.map(sessionJson), 200, { 'X-Total-Count': String(total) });
});

/**
 * Body `{sessionId?, state?, events?}` (or none); 409 `Session already exists: <id>`.
 * The session and its events are written in one transaction: all or nothing.
 */
export const createSession = route<UserParams>(async (request, params, principal) => {
  const owner = userRefOf(params);
  const raw = await readSpelledJson(request, { optional: true });
  const body = parseCreateSession(raw.value);
  authorizeStateWrite(principal, body);
  const spellings = spellingsAt(raw.spelled, ['state']);
  const eventSpellings = eventSpellingsAt(raw.spelled, ['events']);
  const created = await (
    await getStore()
  ).createSession(
    { ...owner, ...body, ...(spellings ? { spellings } : {}), ...(eventSpellings ? { eventSpellings } : {}) },
    appendOptionsFor(principal),
  );
  return json(sessionJson(created), 200, { ETag: revisionTag(created.revision) });
});

/** Creates the session with this id; the whole body (if any) is its initial state. */
export const createSessionWithId = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const raw = await readSpelledJson(request, { optional: true });
  const state = parseInitialState(raw.value);
  authorizeStateWrite(principal, { state });
  const spellings = spellingsAt(raw.spelled, []);
  const session = await (await getStore()).createSession({ ...ref, state, ...(spellings ? { spellings } : {}) });
  return json(sessionJson(session), 200, { ETag: revisionTag(session.revision) });
});

const getQuery = z.object({ numRecentEvents: storedIntegerParam(0).optional(), afterTimestamp: secondsParam().optional() });

/**
 * The session with merged state and every event, as ADK's route returns it;
 * `numRecentEvents` and `afterTimestamp` (seconds, inclusive) are
 * GetSessionConfig's, so an agent reads the last few events of a long session
 * without fetching all of them.
 */
export const getSession = route<SessionParams>(async (request, params) => {
  const ref = sessionRefOf(params);
  const session = await (await getStore()).getSession(ref, parseQuery(request, getQuery));
  if (!session) throw notFound(SESSION_NOT_FOUND);
  const headers = { ETag: revisionTag(session.revision) };
  if (session.events.length > STREAMED_EVENTS_OVER) return jsonChunksResponse(sessionJsonChunks(session), 200, headers);
  return json(sessionJson(session), 200, headers);
});

/** Body `{stateDelta}`: appended as an event by "user" with invocation id `p-<uuid>`; returns the session. */
export const patchSession = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const raw = await readSpelledJson(request);
  const stateDelta = parseUpdateSession(raw.value);
  const spellings = spellingsAt(raw.spelled, ['stateDelta'], ['state_delta']);
  const context = { role: principal.role, ...appendOptionsFor(principal), ...(spellings ? { spellings } : {}) };
  return json(sessionJson(await patchSessionState(await getStore(), ref, stateDelta, context)));
});

/** Removes the session and its events; `200 null` whether or not it existed. */
export const deleteSession = route<SessionParams>(async (_request, params) => {
  const ref = sessionRefOf(params);
  await (await getStore()).deleteSession(ref);
  return json(null);
});
