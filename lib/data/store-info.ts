// Which store the console serves, for its banner: null when it cannot be
// opened (the page itself then shows the outage).
import type { StoreInfo } from '../session-service/store';
import { getStoreInfo, listStoreInfos, requestedStoreId } from '../services';

export async function servedStore(): Promise<StoreInfo | null> {
  try {
    return await getStoreInfo();
  } catch {
    return null;
  }
}

/** Every served store, the first first, for the header's switcher and banner; empty when they cannot be opened. */
export async function servedStores(): Promise<StoreInfo[]> {
  try {
    return await listStoreInfos();
  } catch {
    return [];
  }
}

/** The store the page's path names (`/stores/{id}/...`), for the links it builds; undefined at the root (the first store). */
export function pageStore(): Promise<string | undefined> {
  return requestedStoreId();
}
