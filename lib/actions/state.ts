'use server';

import { editStateCommand, editStateInput } from '../commands/edit-state';
import { appPath, userPath } from '../paths';
import { getStore } from '../services';
import { WRITE_ROLES } from './authorize';
import { defineAction } from './define';

/** App state (every user of the app reads it) needs more than a user's; anything not plainly a user edit is taken as an app edit. */
function roleOf(raw: unknown) {
  const userEdit = typeof raw === 'object' && raw !== null && (raw as { scope?: unknown }).scope === 'user';
  return WRITE_ROLES[userEdit ? 'userState' : 'appState'];
}

/** Support edits of app or user state; every page of that app or user shows the change. */
export const editState = defineAction({
  name: 'editState',
  role: roleOf,
  input: editStateInput,
  run: async (input, principal) => editStateCommand(await getStore(), principal.name, input),
  // A conflict means the page shows old values: send the current ones with the answer.
  revalidate: (input, result) =>
    (result.ok || result.code === 'CONFLICT') && [
      input.scope === 'user' && input.userId ? userPath(input.appName, input.userId) : appPath(input.appName),
      'layout',
    ],
});
