// After a load run: is every acknowledged append stored exactly once, does
// every key hold the value of its last write, do the storage invariants hold,
// and does the API serve what the database holds?
import { sqltag as sql } from '@prisma/client/runtime/client';
import type { SessionStore } from '../../lib/session-service/store';
import type { SqlExecutor } from '../../lib/db/sql';
import { checkIntegrity, type IntegrityReport } from './integrity';
import { sessionOfClient, type Ack, type SessionTarget } from './load';

export interface VerifyResult {
  acknowledged: number;
  stored: number;
  /** Acknowledged but not stored (must be 0). */
  lost: number;
  /** Stored more than once (must be 0). */
  duplicated: number;
  /** Stored although the client saw no acknowledgement (a reply cut off by the kill): allowed. */
  storedUnacknowledged: number;
  keysChecked: number;
  /** Keys whose value is not that of their last write (must be none). */
  wrongKeys: string[];
  integrity: IntegrityReport;
  examples: string[];
}

const clientAndN = (eventId: string) => {
  const match = /-c(\d+)-(\d+)$/.exec(eventId);
  return match ? { client: Number(match[1]), n: Number(match[2]) } : null;
};

export async function verifyWrites(
  client: SqlExecutor,
  appName: string,
  clients: number,
  sessions: SessionTarget[],
  acks: Ack[],
): Promise<VerifyResult> {
  const rows = await client.$queryRaw<{ id: string }[]>(
    sql`SELECT e.id FROM events e JOIN sessions s ON s.pk = e.session_pk WHERE s.app_name = ${appName}`,
  );
  const storedCount = new Map<string, number>();
  for (const row of rows) storedCount.set(row.id, (storedCount.get(row.id) ?? 0) + 1);
  const acked = new Set(acks.map((ack) => ack.eventId));
  const lostIds = [...acked].filter((id) => !storedCount.has(id));
  const duplicated = [...storedCount.values()].filter((count) => count > 1).length;
  const storedUnacknowledged = [...storedCount.keys()].filter((id) => !acked.has(id)).length;

  // The last stored write of each client, which every key it alone writes must hold.
  const lastStored = new Map<number, number>();
  for (const id of storedCount.keys()) {
    const parsed = clientAndN(id);
    if (parsed) lastStored.set(parsed.client, Math.max(lastStored.get(parsed.client) ?? 0, parsed.n));
  }
  const sessionValues = await client.$queryRaw<{ user_id: string; session_id: string; key: string; value: string }[]>(
    sql`SELECT s.user_id, s.id AS session_id, t.key, t.value FROM session_state t JOIN sessions s ON s.pk = t.session_pk
        WHERE s.app_name = ${appName}`,
  );
  const userValues = await client.$queryRaw<{ user_id: string; key: string; value: string }[]>(
    sql`SELECT user_id, key, value FROM user_state WHERE app_name = ${appName}`,
  );
  const appValues = await client.$queryRaw<{ key: string; value: string }[]>(
    sql`SELECT key, value FROM app_state WHERE app_name = ${appName}`,
  );
  const wrongKeys: string[] = [];
  let keysChecked = 0;
  const expect = (where: string, actual: string | undefined, expected: string | undefined) => {
    keysChecked += 1;
    if (actual !== expected) wrongKeys.push(`${where}: ${actual ?? '(absent)'}, expected ${expected ?? '(absent)'}`);
  };
  for (let index = 0; index < clients; index += 1) {
    const session = sessionOfClient(sessions, index);
    const last = lastStored.get(index);
    const expected = last === undefined ? undefined : JSON.stringify(last);
    const key = `c${index}`;
    expect(
      `session ${session.sessionId} ${key}`,
      sessionValues.find((r) => r.session_id === session.sessionId && r.user_id === session.userId && r.key === key)?.value,
      expected,
    );
    expect(`user ${session.userId} ${key}`, userValues.find((r) => r.user_id === session.userId && r.key === key)?.value, expected);
  }
  // Keys every client writes: the value is some stored event's id (which one, the history's order decides; checkIntegrity holds the tier to it).
  const writtenBy = (value: string | undefined) => {
    const id = value === undefined ? undefined : (JSON.parse(value) as string);
    return id !== undefined && storedCount.has(id) ? value : `an id of a stored event (got ${value})`;
  };
  for (const userId of new Set(sessions.map((s) => s.userId))) {
    const value = userValues.find((r) => r.user_id === userId && r.key === 'last_writer')?.value;
    expect(`user ${userId} last_writer`, value, writtenBy(value));
  }
  const appValue = appValues.find((r) => r.key === 'last_writer')?.value;
  // Only every tenth event of a client writes it (load.ts); attempt numbers count failed attempts too.
  const appKeyWritten = [...storedCount.keys()].some((id) => (clientAndN(id)?.n ?? 1) % 10 === 0);
  if (appValue !== undefined || appKeyWritten) expect('app last_writer', appValue, writtenBy(appValue));

  return {
    acknowledged: acked.size,
    stored: rows.length,
    lost: lostIds.length,
    duplicated,
    storedUnacknowledged,
    keysChecked,
    wrongKeys,
    integrity: await checkIntegrity(client, appName),
    examples: lostIds.slice(0, 5),
  };
}

/** Whether GET of each session over HTTP returns exactly what the database holds; the differences found. */
export async function verifyServed(
  baseUrl: string,
  token: string,
  appName: string,
  sessions: SessionTarget[],
  service: SessionStore,
): Promise<string[]> {
  const problems: string[] = [];
  for (const session of sessions) {
    const path = `/api/apps/${encodeURIComponent(appName)}/users/${encodeURIComponent(session.userId)}/sessions/${encodeURIComponent(session.sessionId)}`;
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) {
      problems.push(`GET ${path}: ${response.status}`);
      continue;
    }
    const served = (await response.json()) as { state: unknown; events: { id: string }[] };
    const stored = await service.getSession({ appName, ...session });
    if (JSON.stringify(served.state) !== JSON.stringify(stored?.state)) problems.push(`${path}: served state differs from storage`);
    const servedIds = served.events.map((e) => e.id).join(',');
    if (servedIds !== stored?.events.map((e) => e.id).join(',')) problems.push(`${path}: served events differ from storage`);
  }
  return problems;
}
