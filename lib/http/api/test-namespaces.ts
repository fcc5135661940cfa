// Test kits' namespaces over HTTP: mark one as a kit's own, list the marks
// (the kit's sweep of killed runs), release a user namespace; and the clearing
// doors DELETE /api/apps/{app} and /api/apps/{app}/users/{user}, which clear
// only inside a mark, with a reason, and recorded in the operations log.
import type { ApiRequest } from '../api-request';
import { z } from 'zod';
import { testNamespacesOff } from '../../auth/errors';
import {
  clearTestDataCommand,
  listTestNamespacesCommand,
  markTestNamespaceCommand,
  releaseTestNamespaceCommand,
} from '../../commands/test-namespaces';
import { testNamespacesAllowed } from '../../config';
import { getStore } from '../../services';
import { auditActor } from '../auth';
import { readJson } from '../body';
import { resultOf } from '../errors';
import { plainRoute, route } from '../handler';
import { appNameOf, userRefOf, type AppParams, type UserParams } from '../params';
import { parseQuery } from '../query';
import { json } from '../respond';

function ensureAllowed(): void {
  if (!testNamespacesAllowed()) throw testNamespacesOff();
}

/** Who asks, named in the log: `?actor=` (the test) or the body's `actor`, with the account after it when signed in. */
const actorQuery = z.object({ actor: z.string().max(256).optional() });

const clearQuery = actorQuery.extend({
  reason: z.string().optional(),
  dryRun: z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).optional(),
});

/** `?reason=&dryRun=&actor=`: the clearing doors' parameters (DELETE bodies are not sent by every client). */
function clearOptions(request: ApiRequest) {
  const { actor, reason, dryRun } = parseQuery(request, clearQuery);
  return { actor, reason, dryRun: dryRun === 'true' || dryRun === '1' };
}

/** `GET /api/test-namespaces`: `{items: [{appName, userSuffix, run: {id, host, pid}, actor, time}]}`. */
export const listTestNamespaces = plainRoute(async () => {
  return json({ items: resultOf(await listTestNamespacesCommand(await getStore())) });
});

/** `POST /api/test-namespaces` `{appName, userSuffix?, run: {id, host, pid}, actor?}`: marks a namespace as a test kit's own. Admin. */
export const markTestNamespace = plainRoute(async (request, principal) => {
  ensureAllowed();
  const body = (await readJson(request)) ?? null;
  const claimed = typeof body === 'object' && body !== null && 'actor' in body && typeof body.actor === 'string' ? body.actor : undefined;
  resultOf(await markTestNamespaceCommand(await getStore(), auditActor(principal, claimed), body));
  return json(null);
});

/** `DELETE /api/test-namespaces?appName=&userSuffix=`: a user namespace's mark, once its users are cleared. Admin. */
export const releaseTestNamespace = plainRoute(async (request) => {
  ensureAllowed();
  const input = parseQuery(request, z.object({ appName: z.string().optional(), userSuffix: z.string().optional() }));
  resultOf(await releaseTestNamespaceCommand(await getStore(), input));
  return json(null);
});

/**
 * `DELETE /api/apps/{app}?reason=&dryRun=&actor=`: clears an app a test kit
 * marked as its own, for good (sessions, events, state, history); answers
 * `{dryRun, sessions, events, stateKeys}`. 403 for an unmarked app. Admin.
 */
export const clearApp = route<AppParams>(async (request, params, principal) => {
  ensureAllowed();
  const { actor, ...options } = clearOptions(request);
  const count = resultOf(
    await clearTestDataCommand(await getStore(), auditActor(principal, actor), { appName: appNameOf(params), ...options }),
  );
  return json({ dryRun: options.dryRun, ...count });
});

/** `DELETE /api/apps/{app}/users/{user}?reason=&dryRun=&actor=`: one user of a marked user namespace; the app's state stays. */
export const clearUser = route<UserParams>(async (request, params, principal) => {
  ensureAllowed();
  const { actor, ...options } = clearOptions(request);
  const count = resultOf(await clearTestDataCommand(await getStore(), auditActor(principal, actor), { ...userRefOf(params), ...options }));
  return json({ dryRun: options.dryRun, ...count });
});
