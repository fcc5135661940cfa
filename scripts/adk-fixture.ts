// npm run adk:fixture -- <kind> <path, postgresql or mysql URL>: writes the test
// scenario as that ADK store would have written it (lib/testing/adk-fixtures),
// to try `npm run open` without an agent. The kinds are the registry's presets.
import { existsSync } from 'node:fs';
import { agentDialectOf } from '../lib/stores/adk/agent-db';
import { mysqlDriverUrl } from '../lib/stores/adk/agent-db-mysql';
import {
  APP,
  fixtureLabel,
  fixturePresets,
  fixtureWriter,
  SESSIONS,
  type FixtureDialect,
  type WriterTarget,
} from '../lib/testing/adk-fixtures';

const WHERE: Record<FixtureDialect, string> = {
  sqlite: 'a new file',
  postgresql: 'an empty postgresql database URL',
  mysql: 'an empty mysql:// (MySQL/MariaDB) database URL',
  redis: 'a redis://host:port/db URL (adk-python: ?prefix=...; community: an empty database)',
};

const presets = fixturePresets();
const [name, where] = process.argv.slice(2);
const preset = name === undefined ? undefined : presets.get(name);
if (!preset || !where) {
  console.error('Usage: npm run adk:fixture -- <kind> <new file | empty postgresql or mysql database URL>\nKinds:');
  for (const [kind, fixture] of presets) {
    const dialects = fixture.dialect ? [fixture.dialect] : fixtureWriter(fixture).dialects;
    console.error(`  ${kind.padEnd(14)} ${fixtureWriter(fixture).label(fixture)}: ${dialects.map((d) => WHERE[d]).join(' or ')}`);
  }
  process.exit(2);
}
const dialect: FixtureDialect = /^rediss?:\/\//.test(where) ? 'redis' : agentDialectOf(where);
const dialects = preset.dialect ? [preset.dialect] : fixtureWriter(preset).dialects;
if (!dialects.includes(dialect)) {
  console.error(`${name} is written to ${dialects.map((d) => WHERE[d]).join(' or ')} only.`);
  process.exit(2);
}
if (dialect === 'sqlite' && existsSync(where)) {
  console.error(`${where} exists; give a new file.`);
  process.exit(2);
}
const kind = { ...preset, dialect };
const target: WriterTarget =
  dialect === 'sqlite'
    ? { sqlitePath: where }
    : dialect === 'redis'
      ? { redisUrl: where }
      : dialect === 'mysql'
        ? { mysqlUrl: mysqlDriverUrl(where) }
        : { postgresUrl: where };
await fixtureWriter(kind).write(target, APP, SESSIONS, kind);
console.log(`Wrote ${fixtureLabel(kind)} (app ${APP}, ${SESSIONS.length} sessions) to ${where}`);
