// Test kits' namespaces in Statehouse's own store: each mark is a row of the
// operations log (kind `mark`, the user suffix in user_id), each clear another
// (kind `clear`, written after the data went, so it outlives an app's clear).
import { join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { nowSeconds } from '../../session-service/events';
import type { Audit } from '../../session-service/operations';
import type { DataScope } from '../../session-service/store';
import {
  notTestNamespace,
  scopeInMark,
  type ClearCount,
  type TestNamespace,
  type TestNamespaceMark,
  type TestNamespaceStore,
  type TestRun,
} from '../../session-service/test-namespaces';
import type { StoreContext } from './context';
import { toNumber } from './dialect';
import { recordOperation } from './operation-log';
import { clearData } from './writes';

interface MarkRow {
  app_name: string;
  user_id: string;
  actor: string;
  detail: string;
  time: unknown;
}

function runOf(detail: string): TestRun {
  const run = (JSON.parse(detail) as { run?: Partial<TestRun> }).run ?? {};
  return { id: String(run.id ?? ''), host: String(run.host ?? ''), pid: Number(run.pid ?? 0) };
}

export class NativeTestNamespaces implements TestNamespaceStore {
  constructor(private readonly ctx: StoreContext) {}

  async markTestNamespace(namespace: TestNamespace, run: TestRun, audit: Audit): Promise<void> {
    const entry = { appName: namespace.appName, userId: namespace.userSuffix, kind: 'mark' as const, detail: { run: { ...run } } };
    await this.ctx.write((tx) => recordOperation(tx, entry, audit, nowSeconds()));
  }

  async listTestNamespaces(appName?: string): Promise<TestNamespaceMark[]> {
    const where: Sql[] = [sql`kind = 'mark'`];
    if (appName !== undefined) where.push(sql`app_name = ${appName}`);
    const rows: MarkRow[] = await this.ctx.read(async (tx) =>
      tx.$queryRaw<MarkRow[]>(
        sql`SELECT app_name, user_id, actor, detail, time FROM session_operations WHERE ${join(where, ' AND ')} ORDER BY id`,
      ),
    );
    return rows.map((row) => ({
      appName: row.app_name,
      userSuffix: row.user_id,
      run: runOf(row.detail),
      actor: row.actor,
      time: toNumber(row.time),
    }));
  }

  async clearTestData(scope: DataScope, options: Audit & { reason: string; dryRun: boolean }): Promise<ClearCount> {
    const marks = await this.listTestNamespaces(scope.appName);
    if (!marks.some((mark) => scopeInMark(scope, mark))) throw notTestNamespace(scope);
    const count = await this.count(scope);
    if (options.dryRun) return count;
    await clearData(this.ctx, scope);
    const entry = { appName: scope.appName, userId: scope.userId ?? '', kind: 'clear' as const, detail: { ...count } };
    await this.ctx.write((tx) => recordOperation(tx, entry, options, nowSeconds()));
    return count;
  }

  async releaseTestNamespace(namespace: TestNamespace): Promise<void> {
    // The mark is bookkeeping, not history (the clears of its users are what the log keeps).
    await this.ctx.write(async (tx) =>
      tx.$executeRaw(
        sql`DELETE FROM session_operations WHERE kind = 'mark' AND app_name = ${namespace.appName} AND user_id = ${namespace.userSuffix}`,
      ),
    );
  }

  private count(scope: DataScope): Promise<ClearCount> {
    const { appName, userId } = scope;
    const sessionsWhere = userId === undefined ? sql`app_name = ${appName}` : sql`app_name = ${appName} AND user_id = ${userId}`;
    return this.ctx.read(async (tx) => {
      const [sessions] = await tx.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM sessions WHERE ${sessionsWhere}`);
      const [events] = await tx.$queryRaw<{ n: unknown }[]>(
        sql`SELECT COUNT(*) AS n FROM events WHERE session_pk IN (SELECT pk FROM sessions WHERE ${sessionsWhere})`,
      );
      const [userKeys] = await tx.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM user_state WHERE ${sessionsWhere}`);
      const [appKeys] =
        userId === undefined
          ? await tx.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM app_state WHERE app_name = ${appName}`)
          : [{ n: 0 }];
      return {
        sessions: toNumber(sessions?.n ?? 0),
        events: toNumber(events?.n ?? 0),
        stateKeys: toNumber(userKeys?.n ?? 0) + toNumber(appKeys?.n ?? 0),
      };
    });
  }
}
