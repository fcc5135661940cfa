import { cache } from 'react';
import type { AppSummary, StateEntry } from '../session-service';
import type { AppListQuery } from './list-params';
import { requireViewer } from '../current-principal';
import { getStore } from '../services';
import { orUnreadable } from './unreadable';
import { cutAppTier } from './tier-cut';

/** Every app with sessions or shared state, by name. */
export async function listApps(): Promise<AppSummary[]> {
  await requireViewer();
  const service = await getStore();
  return service.listApps();
}

const APP_ORDER: Record<AppListQuery['sort'], (a: AppSummary, b: AppSummary) => number> = {
  recent: (a, b) => (b.lastUpdateTime ?? -Infinity) - (a.lastUpdateTime ?? -Infinity) || byName(a, b),
  name: byName,
  sessions: (a, b) => b.sessionCount - a.sessionCount || byName(a, b),
};

function byName(a: AppSummary, b: AppSummary): number {
  return a.appName < b.appName ? -1 : a.appName > b.appName ? 1 : 0;
}

/**
 * The apps page: filtered by name, sorted, one page of them. Apps are few
 * (one per agent), so this pages in memory; the counts come from one grouped
 * query over the sessions table.
 */
export async function findApps(query: AppListQuery): Promise<{ items: AppSummary[]; total: number; all: number }> {
  const apps = await listApps();
  const needle = query.q?.toLowerCase();
  const matching = needle ? apps.filter((app) => app.appName.toLowerCase().includes(needle)) : apps;
  const sorted = [...matching].sort(APP_ORDER[query.sort]);
  const start = (query.page - 1) * query.size;
  return { items: sorted.slice(start, start + query.size), total: matching.length, all: apps.length };
}

export interface AppOverview {
  summary: AppSummary;
  /** The app tier, each key with the change that last set it (empty when it cannot be read); large values cut (tier-cut.ts). */
  state: StateEntry[];
  /** Why the app tier's row cannot be read (an agent's store), or null. */
  stateUnreadable: string | null;
}

/** One app's counts and state, or null when no such app exists (no sessions, no shared state). */
export const getAppOverview = cache(async (appName: string): Promise<AppOverview | null> => {
  await requireViewer();
  const service = await getStore();
  const [summary, state] = await Promise.all([service.getAppSummary(appName), orUnreadable(service.getAppState(appName))]);
  if (!summary) return null;
  return 'unreadable' in state
    ? { summary, state: [], stateUnreadable: state.unreadable }
    : { summary, state: cutAppTier(appName, state.value), stateUnreadable: null };
});
