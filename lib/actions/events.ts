'use server';

import { revalidatePath } from 'next/cache';
import { accountActor } from '../auth/principal';
import { appendEventCommand, type AppendEventInput, type AppendEventOutput } from '../commands/append-event';
import { getStore } from '../services';
import { appPath, sessionPath, userPath } from '../paths';
import { scopeOfKey } from '../session-service/scope';
import { principalFor, WRITE_ROLES } from './authorize';
import { failure, type ActionResult } from '../commands/result';

/** Appends an event from the session page's form, guarded by the revision that page loaded. */
export async function appendEvent(input: AppendEventInput): Promise<ActionResult<AppendEventOutput>> {
  let result: ActionResult<AppendEventOutput>;
  try {
    const support = await principalFor(WRITE_ROLES.appendEvent);
    if (!support.ok) return support;
    const { principal } = support;
    const actor = accountActor(principal);
    result = await appendEventCommand(await getStore(), input, { role: principal.role, ...(actor === undefined ? {} : { actor }) });
  } catch (error) {
    return failure(error);
  }
  if (result.ok) {
    // Shared keys change what every session of the user (or app) shows.
    const scopes = new Set(Object.keys(result.data.event.actions.stateDelta).map((key) => scopeOfKey(key).scope));
    if (scopes.has('app')) revalidatePath(appPath(input.appName), 'layout');
    else if (scopes.has('user')) revalidatePath(userPath(input.appName, input.userId), 'layout');
    else revalidatePath(sessionPath(input.appName, input.userId, input.sessionId));
  }
  return result;
}
