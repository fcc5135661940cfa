// The user and app pages' tiers with large values cut as on the session page
// (value-cut.ts), each cut naming the /state/value route that answers with
// the whole of it, so a page's size is bounded whatever a tier holds.
import { appStateValuePath, userStateValuePath } from '../paths';
import type { StateEntry } from '../session-service/types';
import { cutValue } from './value-cut';

function cutEntries(entries: StateEntry[], source: (key: string, pointer: string) => string): StateEntry[] {
  return entries.map((entry) => ({ ...entry, value: cutValue(entry.value, (pointer) => source(entry.key, pointer)) }));
}

export const cutUserTier = (appName: string, userId: string, entries: StateEntry[]) =>
  cutEntries(entries, (key, pointer) => userStateValuePath(appName, userId, key, pointer));

export const cutAppTier = (appName: string, entries: StateEntry[]) =>
  cutEntries(entries, (key, pointer) => appStateValuePath(appName, key, pointer));
