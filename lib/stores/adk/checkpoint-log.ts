// The CheckpointStore on Statehouse's own database (table
// timeline_checkpoints): long sessions' time-travel checkpoints outlive the
// process, and every console over the same database shares them.
import { sqltag as sql } from '@prisma/client/runtime/client';
import type { SqlClient } from '../../db/sql';
import type { CheckpointKey, CheckpointStore } from './base/checkpoints';

const where = (key: CheckpointKey) =>
  sql`store_id = ${key.storeId} AND app_name = ${key.appName} AND user_id = ${key.userId} AND session_id = ${key.sessionId}`;

export class TimelineCheckpointLog implements CheckpointStore {
  constructor(private readonly client: SqlClient) {}

  async fingerprints(key: CheckpointKey): Promise<Map<number, string>> {
    const rows = await this.client.$queryRaw<{ seq: unknown; fingerprint: string }[]>(
      sql`SELECT seq, fingerprint FROM timeline_checkpoints WHERE ${where(key)}`,
    );
    return new Map(rows.map((row) => [Number(row.seq), row.fingerprint]));
  }

  async load(key: CheckpointKey, seq: number, fingerprint: string): Promise<string | null> {
    const rows = await this.client.$queryRaw<{ state: string }[]>(
      sql`SELECT state FROM timeline_checkpoints WHERE ${where(key)} AND seq = ${seq} AND fingerprint = ${fingerprint}`,
    );
    return rows[0]?.state ?? null;
  }

  async save(key: CheckpointKey, seq: number, fingerprint: string, state: string): Promise<void> {
    await this.client.$executeRaw(
      sql`INSERT INTO timeline_checkpoints (store_id, app_name, user_id, session_id, seq, fingerprint, state)
          VALUES (${key.storeId}, ${key.appName}, ${key.userId}, ${key.sessionId}, ${seq}, ${fingerprint}, ${state})
          ON CONFLICT (store_id, app_name, user_id, session_id, seq) DO UPDATE SET fingerprint = excluded.fingerprint, state = excluded.state`,
    );
  }

  async dropAfter(key: CheckpointKey, seq: number): Promise<void> {
    await this.client.$executeRaw(sql`DELETE FROM timeline_checkpoints WHERE ${where(key)} AND seq > ${seq}`);
  }
}
