// The signed-in viewer's saved views of a session list, for the list's page.
import { requireViewer } from '../current-principal';
import { getSavedViews } from '../services';
import type { SavedView } from '../session-service/saved-views';

/** The viewer's views of the app's list of sessions (no userId) or of one user's, by name. */
export async function getListViews(appName: string, userId?: string): Promise<SavedView[]> {
  const principal = await requireViewer();
  const { views, storeId } = await getSavedViews();
  return views.list(principal.name, { storeId, appName, userId: userId ?? '' });
}
