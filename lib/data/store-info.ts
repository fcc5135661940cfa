// Which store the console serves, for its banner: null when it cannot be
// opened (the page itself then shows the outage).
import type { StoreInfo } from '../session-service/store';
import { getStoreInfo } from '../services';

export async function servedStore(): Promise<StoreInfo | null> {
  try {
    return await getStoreInfo();
  } catch {
    return null;
  }
}
