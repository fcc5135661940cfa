// The state tiers: the app's and a user's (read and support edits, recorded with actor and reason), and a session's three tiers now or as of an event.
import type { ApiRequest } from '../api-request';
import { z } from 'zod';
import { cutStateView } from '../../data/session-cut';
import { sessionStateView } from '../../data/session-state';
import { getStore } from '../../services';
import { applyStateEdit } from '../../commands/edit-state';
import { auditActor } from '../auth';
import { resultOf } from '../errors';
import { readSpelledJson } from '../body';
import { route } from '../handler';
import { appNameOf, sessionRefOf, userRefOf, type AppParams, type SessionParams, type UserParams } from '../params';
import { notFound } from '../problem';
import { parseQuery, storedIntegerParam } from '../query';
import { json } from '../respond';
import { previewQuery } from '../schemas/preview';
import { parseStateEdit } from '../schemas/state-edit';
import { pointer } from '../schemas/pointer';
import { valueAt } from '../../data/value-cut';
import type { StateEntry } from '../../session-service/types';
import { spellingsAt } from '../../session-service/value-spelling';

/** The edit, and its `set` values as sent (a float written `2.0` is stored `2.0`). */
async function readStateEdit(request: ApiRequest) {
  const body = await readSpelledJson(request);
  const spellings = spellingsAt(body.spelled, ['set']);
  return { edit: parseStateEdit(body.value), spellings: spellings ? { spellings } : {} };
}

export const getAppState = route<AppParams>(async (_request, params) => {
  const appName = appNameOf(params);
  return json({ entries: await (await getStore()).getAppState(appName) });
});

export const editAppState = route<AppParams>(async (request, params, principal) => {
  const appName = appNameOf(params);
  const { edit, spellings } = await readStateEdit(request);
  const actor = auditActor(principal, edit.actor);
  const entries = resultOf(await applyStateEdit(await getStore(), { scope: 'app', appName, ...edit, actor, ...spellings }));
  return json({ entries });
});

export const getUserState = route<UserParams>(async (_request, params) => {
  const { appName, userId } = userRefOf(params);
  return json({ entries: await (await getStore()).getUserState(appName, userId) });
});

export const editUserState = route<UserParams>(async (request, params, principal) => {
  const owner = userRefOf(params);
  const { edit, spellings } = await readStateEdit(request);
  const actor = auditActor(principal, edit.actor);
  const entries = resultOf(await applyStateEdit(await getStore(), { scope: 'user', ...owner, ...edit, actor, ...spellings }));
  return json({ entries });
});

const sessionStateQuery = z.object({ asOf: storedIntegerParam(0).optional(), ...previewQuery });

/** `?asOf=<seq>`: the three tiers separately, now or right after an event; `preview=1` cuts large values. */
export const getSessionState = route<SessionParams>(async (request, params) => {
  const ref = sessionRefOf(params);
  const { asOf, preview } = parseQuery(request, sessionStateQuery);
  const view = await sessionStateView(await getStore(), ref, asOf, { preview });
  return json(preview ? cutStateView(ref, view, asOf) : view);
});

const tierValueQuery = z.object({ key: z.string({ error: 'is required' }).max(1024), pointer });

/** `{"value": ...}` of one key of a tier (the part at `pointer`), 404 when there is none: what a cut value on the user or compare page points at. */
function tierValue(request: ApiRequest, entries: StateEntry[]): Response {
  const query = parseQuery(request, tierValueQuery);
  const value = valueAt(entries.find((entry) => entry.key === query.key)?.value, query.pointer);
  if (value === undefined) throw notFound('No such value in this tier.');
  return json({ value });
}

/** `?key=&pointer=`: the whole of an app-tier value, or part of it. */
export const getAppStateValue = route<AppParams>(async (request, params) =>
  tierValue(request, await (await getStore()).getAppState(appNameOf(params))),
);

/** `?key=&pointer=`: the whole of a user-tier value, or part of it. */
export const getUserStateValue = route<UserParams>(async (request, params) => {
  const { appName, userId } = userRefOf(params);
  return tierValue(request, await (await getStore()).getUserState(appName, userId));
});
