import { mayWrite } from '@/lib/actions/authorize';
import { getListViews } from '@/lib/data/saved-views';
import { SavedViews } from './saved-views';

/** The viewer's saved views of an app's (or, with userId, a user's) list of sessions. */
export async function SavedViewsPanel(props: { pathname: string; appName: string; userId?: string; headingLevel: 2 | 3 }) {
  const [views, canSave] = await Promise.all([getListViews(props.appName, props.userId), mayWrite('savedViews')]);
  return <SavedViews {...props} views={views} canSave={canSave} />;
}
