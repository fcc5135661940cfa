// The adk-js session-service contract over the drop-in, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe } from 'vitest';
import { describeAdkJsSessionContract } from '../testing/adk-js-session-contract';
import { testProviders } from '../testing/databases';
import { useTestDatabase } from '../testing/use-test-database';
import { StatehouseSessionService } from './statehouse-session-service';

describe.each(await testProviders())('StatehouseSessionService on %s', (provider) => {
  const database = useTestDatabase(provider);
  let service: StatehouseSessionService | undefined;
  beforeAll(() => {
    service = new StatehouseSessionService({ databaseUrl: database.url, migrate: false });
  });
  afterAll(() => service?.close());

  describeAdkJsSessionContract('StatehouseSessionService', {
    service: () => {
      if (!service) throw new Error('The service exists only while its describe block runs.');
      return service;
    },
  });
});
