// Which of adk-python's write rules a v1 database is kept under, beyond
// schema_version. Read in google/adk-python (November 2026):
//   - database_session_service.py @0012809b: append_event guards a session
//     by its update_time marker (`_storage_update_marker`, compared with
//     the stored `update_time.isoformat(timespec="microseconds")`) under a
//     per-process lock and, on PostgreSQL/MySQL, SELECT ... FOR UPDATE.
//     There is no version column: no released DatabaseSessionService reads
//     or writes `sessions.event_sequence`.
//   - schemas/v1.py @0c505fea (the branch of adk-python #4752, closed
//     without merging; #4751 asked for it) maps `sessions.event_sequence`
//     as SQLAlchemy `version_id_col`. A database with that column was made
//     by such a build; its rule (who bumps the counter, what an older copy
//     is refused with) is not one Statehouse can reproduce from a release.
//   - alembic_runner.py @45d77e03 and migration/versions/001_baseline_v1_schema.py
//     @6066b3f1: `adk migrate upgrade|stamp` stamps `alembic_version` with
//     `001_baseline_v1`, the same v1 tables; DatabaseSessionService itself
//     never stamps it (prepare_tables creates tables with metadata.create_all).
// So: a baseline-stamped database is written as any v1 database; a newer
// Alembic revision, or a version column, opens read-only and says why.
import type { AgentQuery } from '../agent-db';
import { column, type SchemaInfo } from '../schema';

export const ALEMBIC_BASELINE = '001_baseline_v1';

export interface WriteRules {
  /** For the store's description (empty when there is nothing beyond schema_version to say). */
  description: string;
  readOnlyReason?: string;
}

export async function readWriteRules(q: AgentQuery, schema: SchemaInfo): Promise<WriteRules> {
  const notes: string[] = [];
  const reasons: string[] = [];
  if (schema.tables.has('alembic_version')) {
    const revisions = (await q.all('SELECT version_num AS v FROM alembic_version')).map((row) => String(row.v));
    notes.push(`Alembic revision ${revisions.join(', ') || 'none'}`);
    if (revisions.some((revision) => revision !== ALEMBIC_BASELINE)) {
      reasons.push(
        `alembic_version is at ${revisions.join(', ')}; Statehouse knows adk-python's migrations up to ${ALEMBIC_BASELINE}, and a later one may change how sessions are written.`,
      );
    }
  }
  if (column(schema, 'sessions', 'event_sequence')) {
    notes.push('sessions.event_sequence version column');
    reasons.push(
      'sessions has an event_sequence column, an optimistic-concurrency version (SQLAlchemy version_id_col) that no adk-python release writes ' +
        '(proposed in adk-python #4752, closed unmerged). Statehouse writes only under rules it reproduces exactly, so that an agent holding an older copy meets its own stale error.',
    );
  }
  return { description: notes.join(', '), ...(reasons.length > 0 ? { readOnlyReason: reasons.join(' ') } : {}) };
}
