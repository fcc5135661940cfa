// The read contract (lib/testing/store-contract.ts) on Statehouse's own
// store and on every ADK store family Statehouse opens, over the same
// scenario. PostgreSQL and MySQL/MariaDB variants run where the test server
// is reachable (always in CI). The ADK stores keep titles and labels in one
// Statehouse database, as the server's do, each under its own store id.
import { afterAll } from 'vitest';
import { openDatabase } from '../../db';
import { describeReadContract } from '../../testing/store-contract';
import { fixtureLabel, type AdkFixtureKind } from '../../testing/adk-fixtures';
import { openAdkFixture, openNativeFixture } from '../../testing/adk-fixtures/stores';
import { createMigratedDatabase, testProviders } from '../../testing/databases';
import { mysqlAvailable } from '../../testing/mysql';
import { redisAvailable } from '../../testing/adk-fixtures/redis';
import { StoreSessionLog } from './session-log';

const providers = await testProviders();
const LIMIT = 12;
const own = await createMigratedDatabase('sqlite', 'read-contract');
const ownDb = await openDatabase(own.url);
const sessionLog = new StoreSessionLog(ownDb.client, ownDb.provider);
afterAll(async () => {
  await ownDb.close();
  await own.remove();
});

describeReadContract('Statehouse native store on sqlite', async () => ({
  ...(await openNativeFixture('sqlite', { searchCountLimit: LIMIT })),
  searchCountLimit: LIMIT,
}));

if (providers.includes('postgresql')) {
  describeReadContract('Statehouse native store on postgresql', async () => ({
    ...(await openNativeFixture('postgresql', { searchCountLimit: LIMIT })),
    searchCountLimit: LIMIT,
  }));
}

const kinds: AdkFixtureKind[] = [
  { family: 'py-sqlite' },
  { family: 'py-sqlite', wal: true },
  { family: 'py-db', dialect: 'sqlite', clock: 'local', localOffsetHours: 2 },
  { family: 'py-db', dialect: 'sqlite', clock: 'utc' },
  { family: 'adk-js', dialect: 'sqlite' },
  { family: 'adk-rust', dialect: 'sqlite' },
  { family: 'adk-go', dialect: 'sqlite' },
  { family: 'adk-go', dialect: 'sqlite', zone: { offsetHours: -5, name: 'EST' } },
];
if (providers.includes('postgresql')) {
  kinds.push(
    { family: 'py-db', dialect: 'postgresql', clock: 'local', localOffsetHours: -5 },
    { family: 'py-db', dialect: 'postgresql', clock: 'utc' },
    { family: 'py-db', dialect: 'postgresql', clock: 'timestamptz' },
    { family: 'adk-js', dialect: 'postgresql' },
    { family: 'adk-rust', dialect: 'postgresql' },
    { family: 'adk-go', dialect: 'postgresql' },
  );
}
if (await mysqlAvailable()) {
  kinds.push(
    { family: 'adk-go', dialect: 'mysql' },
    { family: 'py-db', dialect: 'mysql', clock: 'local', localOffsetHours: 2 },
    { family: 'py-db', dialect: 'mysql', clock: 'local', localOffsetHours: -5 },
    { family: 'py-db', dialect: 'mysql', clock: 'local', localOffsetHours: 2, mariadbUrl: true },
  );
}

if (await redisAvailable()) kinds.push({ family: 'redis', layout: 'adk-python' }, { family: 'redis', layout: 'community' });

for (const kind of kinds) {
  // adk-rust's Event (adk-core/src/event.rs) has no custom_metadata: serde drops it.
  const eventFieldsNotStored = kind.family === 'adk-rust' ? ['customMetadata'] : [];
  describeReadContract(fixtureLabel(kind), async () => ({
    ...(await openAdkFixture(kind, { id: fixtureLabel(kind), searchCountLimit: LIMIT, sessionLog })),
    searchCountLimit: LIMIT,
    eventFieldsNotStored,
  }));
}
