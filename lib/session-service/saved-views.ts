// Named saved views of a session list: the list's query string (state
// filters, id search, sort, page size) kept under a name so it is applied
// again in one click. They are each person's own: keyed by the account that
// saved them, and by the list they belong to (the served store's id, the app,
// and the user for a user's list), in Statehouse's own database whatever the
// store. A view is a preference, not session data: it is not in the audit log.

/** Which list a view belongs to; `userId` is '' for the app's list of sessions. */
export interface ViewList {
  storeId: string;
  appName: string;
  userId: string;
}

export interface SavedView extends ViewList {
  id: number;
  account: string;
  name: string;
  /** The list's query string without its leading '?' (never a page number). */
  query: string;
  /** Float seconds. */
  createdTime: number;
  updatedTime: number;
}

export interface SavedViewStore {
  /** The account's views of the list, by name. */
  list(account: string, list: ViewList): Promise<SavedView[]>;
  /** Saves the query under the name, replacing the query of a view of that name. */
  save(account: string, list: ViewList, view: { name: string; query: string }, time: number): Promise<SavedView>;
  /** Null when the account has no such view; ALREADY_EXISTS when another of its views on the list has that name. */
  rename(account: string, id: number, name: string, time: number): Promise<SavedView | null>;
  /** The removed view, or null when the account has no such view. */
  remove(account: string, id: number): Promise<SavedView | null>;
}

/** Longest view name, in characters. */
export const MAX_VIEW_NAME_LENGTH = 80;
/** Longest query a view keeps: three filters with their values fit well within it. */
export const MAX_VIEW_QUERY_LENGTH = 4000;
/** Views one account keeps per list. */
export const MAX_VIEWS_PER_LIST = 50;
