// Saved views of a session list: save, rename and delete, each the
// signed-in account's own. The console's actions call these; the query a view
// keeps is cut to the list's own parameters, so a view never carries a page
// number or anything a list does not read.
import { z } from 'zod';
import { viewQueryOf } from '../data/list-params';
import { nowSeconds } from '../session-service/events';
import { MAX_VIEW_NAME_LENGTH, MAX_VIEW_QUERY_LENGTH, type SavedView, type SavedViewStore } from '../session-service/saved-views';
import { SessionServiceError } from '../session-service/errors';
import { nameProblem } from '../validation/text';
import { fieldErrorsOf, idSchema, typedText } from '../validation/schemas';
import { attempt, invalid, type ActionResult } from './result';

export const viewName = typedText(MAX_VIEW_NAME_LENGTH, 'name the view', nameProblem);

const viewId = z.number({ error: 'must be a view id' }).int().positive();

export const saveViewInput = z.object({
  appName: idSchema,
  /** Absent or '' for the app's list of sessions. */
  userId: z.union([idSchema, z.literal('')]).optional(),
  name: viewName,
  query: z
    .string({ error: 'must be a string' })
    .max(MAX_VIEW_QUERY_LENGTH, `must be at most ${MAX_VIEW_QUERY_LENGTH} characters`)
    .transform(viewQueryOf),
});
export type SaveViewInput = z.input<typeof saveViewInput>;

export const renameViewInput = z.object({ id: viewId, name: viewName });
export type RenameViewInput = z.input<typeof renameViewInput>;

export const deleteViewInput = z.object({ id: viewId });
export type DeleteViewInput = z.input<typeof deleteViewInput>;

/** Where views are kept and which served store's lists they are of. */
export interface ViewContext {
  views: SavedViewStore;
  storeId: string;
}

const noSuchView = (id: number) => new SessionServiceError('NOT_FOUND', `You have no saved view ${id} (it may have been deleted already).`);

/** Saves the list's query under a name for `account` (a view of that name on the list is replaced). */
export async function saveViewCommand(context: ViewContext, account: string, raw: unknown): Promise<ActionResult<SavedView>> {
  const parsed = saveViewInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { appName, userId = '', name, query } = parsed.data;
  return attempt(() => context.views.save(account, { storeId: context.storeId, appName, userId }, { name, query }, nowSeconds()));
}

export async function renameViewCommand(context: ViewContext, account: string, raw: unknown): Promise<ActionResult<SavedView>> {
  const parsed = renameViewInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { id, name } = parsed.data;
  return attempt(async () => (await context.views.rename(account, id, name, nowSeconds())) ?? Promise.reject(noSuchView(id)));
}

export async function deleteViewCommand(context: ViewContext, account: string, raw: unknown): Promise<ActionResult<SavedView>> {
  const parsed = deleteViewInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { id } = parsed.data;
  return attempt(async () => (await context.views.remove(account, id)) ?? Promise.reject(noSuchView(id)));
}
