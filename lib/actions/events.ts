'use server';

import { accountActor } from '../auth/principal';
import { appendEventCommand, appendEventInput } from '../commands/append-event';
import { appPath, sessionPath, userPath } from '../paths';
import { getStore } from '../services';
import { scopeOfKey } from '../session-service/scope';
import { WRITE_ROLES } from './authorize';
import { defineAction } from './define';

/** Appends an event from the session page's form, guarded by the revision that page loaded. */
export const appendEvent = defineAction({
  name: 'appendEvent',
  role: WRITE_ROLES.appendEvent,
  input: appendEventInput,
  run: async (input, principal) => {
    const actor = accountActor(principal);
    return appendEventCommand(await getStore(), input, { role: principal.role, ...(actor === undefined ? {} : { actor }) });
  },
  revalidate: (input, result) => {
    if (!result.ok) return false;
    // Shared keys change what every session of the user (or app) shows.
    const scopes = new Set(Object.keys(result.data.event.actions.stateDelta).map((key) => scopeOfKey(key).scope));
    if (scopes.has('app')) return [appPath(input.appName), 'layout'];
    if (scopes.has('user')) return [userPath(input.appName, input.userId), 'layout'];
    return [sessionPath(input.appName, input.userId, input.sessionId)];
  },
});
