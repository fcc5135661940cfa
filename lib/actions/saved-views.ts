'use server';

import {
  deleteViewCommand,
  deleteViewInput,
  renameViewCommand,
  renameViewInput,
  saveViewCommand,
  saveViewInput,
} from '../commands/saved-views';
import type { ActionResult } from '../commands/result';
import type { SavedView } from '../session-service/saved-views';
import { appPath, userPath } from '../paths';
import { getSavedViews } from '../services';
import { WRITE_ROLES } from './authorize';
import { actionFamily, defineAction, type Revalidation } from './define';

/** An account's own views: the signed-in account's, or in local mode the one local operator's. */
const viewWrite = actionFamily({ role: WRITE_ROLES.savedViews, context: getSavedViews });

export const saveView = defineAction(viewWrite('saveView', saveViewInput, saveViewCommand, onListOfView));

export const renameView = defineAction(viewWrite('renameView', renameViewInput, renameViewCommand, onListOfView));

export const deleteView = defineAction(viewWrite('deleteView', deleteViewInput, deleteViewCommand, onListOfView));

/** A view shows on its list's page, the app's sessions or a user's: that page is re-rendered. */
function onListOfView(_input: unknown, result: ActionResult<SavedView>): Revalidation | false {
  if (!result.ok) return false;
  const { appName, userId } = result.data;
  return [userId === '' ? appPath(appName) : userPath(appName, userId), 'page'];
}
