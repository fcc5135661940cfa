// Statehouse's own store's whole-session operations (operations.ts in the
// domain), each in its own file; NativeSessionStore exposes them.
import type { SqlClient } from '../../db/sql';
import { nowSeconds } from '../../session-service/events';
import type {
  Audit,
  ForkRequest,
  MetaEdit,
  OperationQuery,
  PruneTarget,
  SessionCopy,
  SessionOperations,
} from '../../session-service/operations';
import type { SessionRef } from '../../session-service/store';
import { insertCopy } from './copy-in';
import type { Dialect } from './dialect';
import { forkSession } from './fork';
import { listOperations, recordOperation } from './operation-log';
import { prune } from './prune';
import { getSessionMeta, setSessionMeta } from './session-meta';

export class NativeSessionOperations implements SessionOperations {
  constructor(
    private readonly client: SqlClient,
    private readonly dialect: Dialect,
  ) {}

  forkSession(request: ForkRequest, audit: Audit) {
    return forkSession(this.client, this.dialect, request, audit, nowSeconds());
  }

  async importSessions(copies: SessionCopy[], audit: Audit): Promise<void> {
    const now = nowSeconds();
    await this.client.$transaction(async (tx) => {
      for (const copy of copies) {
        await insertCopy(tx, this.dialect, copy, { ...audit, now, lastUpdateTime: copy.lastUpdateTime });
        await recordOperation(
          tx,
          { appName: copy.appName, userId: copy.userId, sessionId: copy.sessionId, kind: 'import', detail: { events: copy.events.length } },
          audit,
          now,
        );
      }
    });
  }

  getSessionMeta(ref: SessionRef) {
    return getSessionMeta(this.client, this.dialect, ref);
  }

  setSessionMeta(ref: SessionRef, edit: MetaEdit, audit: Audit) {
    return setSessionMeta(this.client, ref, edit, audit, nowSeconds());
  }

  prune(target: PruneTarget, options: Audit & { dryRun: boolean }) {
    return prune(this.client, target, options, nowSeconds());
  }

  listOperations(query: OperationQuery) {
    return listOperations(this.client, this.dialect, query);
  }
}
