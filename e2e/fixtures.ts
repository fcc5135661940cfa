// Test fixtures: a session service on the same database as the server under
// test, and helpers that create uniquely named data and delete it afterwards,
// so tests can run in parallel and in any order.
//
// Relative imports only: Playwright's TypeScript loader does not apply the
// project's `@/` alias.
import { test as base, expect } from '@playwright/test';
import { openServices } from '../lib/services';
import { type JsonValue, type Session, type SessionRef, type SessionStore } from '../lib/session-service';
import { makeSession, uniqueName, type SessionOverrides } from '../lib/testing/factories';
import { e2eDatabaseUrl } from './support/database';

interface WorkerFixtures {
  /** The service on the server's database, one connection per worker. */
  service: SessionStore;
}

/** App state (no userId) or one user's state, keys without prefix. */
export interface SharedState {
  appName: string;
  userId?: string;
  state: Record<string, JsonValue>;
}

interface TestFixtures {
  /** Creates a session (unique app, user and id unless given) and deletes it when the test ends. */
  createSession: (overrides?: SessionOverrides) => Promise<Session>;
  /** Writes app or user state as a support edit would, and removes those keys when the test ends. */
  setSharedState: (shared: SharedState) => Promise<void>;
}

const FIXTURE_ACTOR = { actor: 'e2e-fixture', reason: 'end-to-end test data' };

export const test = base.extend<TestFixtures, WorkerFixtures>({
  service: [
    async ({}, use) => {
      const services = await openServices(e2eDatabaseUrl(), { migrate: false });
      try {
        await use(services.store);
      } finally {
        await services.close();
      }
    },
    { scope: 'worker' },
  ],

  createSession: async ({ service }, use) => {
    const created: SessionRef[] = [];
    await use(async (overrides = {}) => {
      const session = await makeSession(service, { appName: uniqueName('e2e-app'), ...overrides });
      created.push({ appName: session.appName, userId: session.userId, sessionId: session.id });
      return session;
    });
    for (const ref of created) await service.deleteSession(ref);
  },

  setSharedState: async ({ service }, use) => {
    const written: SharedState[] = [];
    await use(async (shared) => {
      const scope = shared.userId === undefined ? 'app' : 'user';
      await service.editState({ ...shared, scope, changes: shared.state, ...FIXTURE_ACTOR });
      written.push(shared);
    });
    for (const shared of written.reverse()) {
      const changes = Object.fromEntries(Object.keys(shared.state).map((key) => [key, undefined]));
      const scope = shared.userId === undefined ? 'app' : 'user';
      await service.editState({ ...shared, scope, changes, ...FIXTURE_ACTOR });
    }
  },
});

export { expect, uniqueName };
