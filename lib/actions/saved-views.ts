'use server';

import type { Principal } from '../auth/principal';
import {
  deleteViewCommand,
  deleteViewInput,
  renameViewCommand,
  renameViewInput,
  saveViewCommand,
  saveViewInput,
} from '../commands/saved-views';
import { appPath, userPath } from '../paths';
import { getSavedViews } from '../services';
import { WRITE_ROLES } from './authorize';
import { defineAction } from './define';

/** Whose views these are: the signed-in account's name, or in local mode the one local operator's. */
const accountOf = (principal: Principal) => principal.name;

// Views show on the app's and its users' lists: every page under the app is re-rendered.
export const saveView = defineAction({
  name: 'saveView',
  role: WRITE_ROLES.savedViews,
  input: saveViewInput,
  run: async (input, principal) => saveViewCommand(await getSavedViews(), accountOf(principal), input),
  revalidate: (input, result) =>
    result.ok && (input.userId ? [userPath(input.appName, input.userId), 'page'] : [appPath(input.appName), 'page']),
});

export const renameView = defineAction({
  name: 'renameView',
  role: WRITE_ROLES.savedViews,
  input: renameViewInput,
  run: async (input, principal) => renameViewCommand(await getSavedViews(), accountOf(principal), input),
  revalidate: (_input, result) => result.ok && [listPathOf(result.data), 'page'],
});

export const deleteView = defineAction({
  name: 'deleteView',
  role: WRITE_ROLES.savedViews,
  input: deleteViewInput,
  run: async (input, principal) => deleteViewCommand(await getSavedViews(), accountOf(principal), input),
  revalidate: (_input, result) => result.ok && [listPathOf(result.data), 'page'],
});

function listPathOf(view: { appName: string; userId: string }): string {
  return view.userId === '' ? appPath(view.appName) : userPath(view.appName, view.userId);
}
