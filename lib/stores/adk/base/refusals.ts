// What an ADK store would refuse of the whole-session operations, asked
// before any is run: the console hides those forms and says why, and a dry
// run refuses what its write would (never "create", then 405).
import { isSessionServiceError, unsupported, type SessionServiceError } from '../../../session-service/errors';
import type { RefusableOperation } from '../../../session-service/operations';
import type { AdkStoreContext } from './context';
import { EVENT_PRUNE_REFUSED } from './prune';
import { SESSION_LOG_MISSING } from './session-meta';

export function refusalOf(ctx: AdkStoreContext, operation: RefusableOperation): SessionServiceError | undefined {
  try {
    if (operation === 'pruneEvents') return unsupported(EVENT_PRUNE_REFUSED);
    if (operation === 'fork' || operation === 'import') ctx.sessionWriter(operation);
    else if (operation === 'prune') ctx.writes();
    else if (!ctx.sessionLog) return unsupported(SESSION_LOG_MISSING);
    return undefined;
  } catch (error) {
    if (isSessionServiceError(error)) return error;
    throw error;
  }
}
