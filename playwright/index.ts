// statehouse/playwright: Statehouse inside a Playwright suite. See docs/testing.md.
export { test, expect, sessionOn, type StatehouseFixtures, type StatehouseTestOptions, type StatehouseWorkerFixtures } from './fixtures.js';
export { statehouseMatchers, type EventPattern, type RetryOptions, type StateOptions, type StatehouseMatchers } from './matchers.js';
export { Statehouse, type NamespaceMode, type SeedRequest, type SeededSession } from './statehouse.js';
export { StatehouseClient, StatehouseError, type ClearOptions, type ClientOptions, type StateEdit } from './client.js';
export { StatehouseConsole } from './console/console.js';
export { AppPage, AppsPage, ConsolePage, SessionPage, UserPage, type AppendEventInput } from './console/pages.js';
export { EditDialog, StateLocators, TIER_TITLES, type Tier } from './console/locators.js';
export { currentRun, isLeftover, sweepLeftovers, SWEEP_ACTOR, type SweepOptions, type SweepReport } from './sweep.js';
export { statehouseWebServer, type StatehouseWebServerOptions } from './web-server.js';
export type {
  ClearCount,
  JsonValue,
  NamespaceMark,
  NewEvent,
  SessionJson,
  SessionRef,
  StateRecord,
  StoredEvent,
  TestRun,
} from './types.js';
