// npm run adk:fixture -- <kind> <path or postgresql URL>: writes the test
// scenario as an adk-python store would have written it (see
// lib/testing/adk-fixtures), to try `npm run open` without an agent.
// Kinds: py-sqlite, py-sqlite-wal, py-db-local, py-db-utc, py-db-tz (PostgreSQL only), py-db-v0.
import { existsSync } from 'node:fs';
import { APP, SESSIONS, writePythonDbStore, writePythonSqliteStore, type PyDbOptions } from '../lib/testing/adk-fixtures';

const PY_DB: Record<string, PyDbOptions> = {
  'py-db-local': { clock: 'local', localOffsetHours: 2 },
  'py-db-utc': { clock: 'utc' },
  'py-db-tz': { clock: 'timestamptz' },
  'py-db-v0': { clock: 'local', v0: true },
};

const [kind, where] = process.argv.slice(2);
if (!kind || !where || (!kind.startsWith('py-sqlite') && !PY_DB[kind])) {
  console.error(
    `Usage: npm run adk:fixture -- <py-sqlite|py-sqlite-wal|${Object.keys(PY_DB).join('|')}> <new file | empty postgresql database URL>`,
  );
  process.exit(2);
}
const postgres = /^postgres(ql)?:\/\//.test(where);
if (!postgres && existsSync(where)) {
  console.error(`${where} exists; give a new file.`);
  process.exit(2);
}
if (kind.startsWith('py-sqlite')) writePythonSqliteStore(where, APP, SESSIONS, { wal: kind === 'py-sqlite-wal' });
else await writePythonDbStore(postgres ? { postgresUrl: where } : { sqlitePath: where }, APP, SESSIONS, PY_DB[kind] as PyDbOptions);
console.log(`Wrote ${kind} (app ${APP}, ${SESSIONS.length} sessions) to ${where}`);
