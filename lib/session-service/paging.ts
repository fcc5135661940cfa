// The paging rule every store applies to a PageRequest.
import { invalidInput } from './errors';
import type { PageRequest } from './store';

const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;
/** Matches of a narrowed session search counted past the page's offset; beyond, the total is a lower bound ("10,000+"). */
export const SEARCH_COUNT_LIMIT = 10_000;

export function pageBounds(page: PageRequest | undefined): { limit: number; offset: number } {
  const limit = page?.limit ?? DEFAULT_PAGE_SIZE;
  const offset = page?.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalidInput(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  }
  if (!Number.isInteger(offset) || offset < 0) throw invalidInput('offset must be a non-negative integer.');
  return { limit, offset };
}
