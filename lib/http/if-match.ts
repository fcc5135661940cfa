import type { ApiRequest } from './api-request';
import { MAX_REVISION } from '../validation/limits';
import { badRequest } from './problem';

/**
 * The revision an append is guarded by: `If-Match: 7` or the ETag form
 * `If-Match: "7"`. Absent or `*` (any current version) means unguarded.
 */
export function expectedRevisionOf(request: ApiRequest): number | undefined {
  const header = request.headers.get('if-match')?.trim();
  if (!header || header === '*') return undefined;
  const match = /^(?:W\/)?(?:"(\d+)"|(\d+))$/.exec(header);
  const revision = Number(match?.[1] ?? match?.[2] ?? Number.NaN);
  if (!Number.isSafeInteger(revision) || revision > MAX_REVISION) {
    throw badRequest(`If-Match: expected the session's revision (an integer such as 7 or "7"), got ${JSON.stringify(header)}`);
  }
  return revision;
}

/** The ETag a client sends back in If-Match to append on top of this revision. */
export const revisionTag = (revision: number) => `"${revision}"`;
