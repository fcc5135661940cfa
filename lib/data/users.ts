import { cache } from 'react';
import type { Page, StateEntry, UserSummary } from '../session-service';
import { limitOffset, type UserListQuery } from './list-params';
import { requireViewer } from '../current-principal';
import { getStore } from '../services';
import { cutUserTier } from './tier-cut';
import { orUnreadable, unreadableTime } from './unreadable';

/** The user's newest sessions looked through for the newest update time the store can read (one it cannot lists first on SQLite). */
const LATEST_SCAN = 10;

/** One page of an app's users (with sessions or user state). */
export async function findUsers(appName: string, query: UserListQuery): Promise<Page<UserSummary>> {
  await requireViewer();
  const service = await getStore();
  return service.listUsers(appName, { idContains: query.q, order: query.sort, ...limitOffset(query) });
}

export interface UserOverview {
  appName: string;
  userId: string;
  sessionCount: number;
  /** Float seconds of the latest session update or user-state change, as the users list counts it; null when none can be read. */
  lastUpdateTime: number | null;
  /** The user tier, each key with the change that last set it (empty when it cannot be read). */
  state: StateEntry[];
  /** Why the user tier's row cannot be read (an agent's store), or null. */
  stateUnreadable: string | null;
}

/**
 * One user of one app, or null when the app has neither sessions nor user
 * state for them. Two indexed lookups: the user's newest session (with the
 * count) and their state.
 */
export const getUserOverview = cache(async (appName: string, userId: string): Promise<UserOverview | null> => {
  await requireViewer();
  const service = await getStore();
  const [sessions, read] = await Promise.all([
    service.searchSessions({ appName, userId, limit: LATEST_SCAN }),
    orUnreadable(service.getUserState(appName, userId)),
  ]);
  const state = 'unreadable' in read ? [] : read.value;
  const stateUnreadable = 'unreadable' in read ? read.unreadable : null;
  if (sessions.total === 0 && state.length === 0 && stateUnreadable === null) return null;
  const times = [
    ...sessions.items.filter((item) => !unreadableTime(item.lastUpdateTime, item.unreadable)).map((item) => item.lastUpdateTime),
    ...state.map((entry) => entry.updateTime),
  ];
  return {
    appName,
    userId,
    sessionCount: sessions.total,
    lastUpdateTime: times.length > 0 ? Math.max(...times) : null,
    state: cutUserTier(appName, userId, state),
    stateUnreadable,
  };
});
