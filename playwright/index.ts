// statehouse/playwright: Statehouse inside a Playwright suite. See docs/testing.md.
export { test, expect, sessionOn, type StatehouseFixtures, type StatehouseTestOptions } from './fixtures.js';
export { statehouseMatchers, type EventPattern, type RetryOptions, type StateOptions, type StatehouseMatchers } from './matchers.js';
export { Statehouse, type NamespaceMode, type SeedRequest, type SeededSession } from './statehouse.js';
export { StatehouseClient, StatehouseError, type ClientOptions, type StateEdit } from './client.js';
export { StatehouseConsole } from './console/console.js';
export { AppPage, AppsPage, ConsolePage, SessionPage, UserPage, type AppendEventInput } from './console/pages.js';
export { EditDialog, StateLocators, TIER_TITLES, type Tier } from './console/locators.js';
export { statehouseWebServer, type StatehouseWebServerOptions } from './web-server.js';
export type { JsonValue, NewEvent, SessionJson, SessionRef, StateRecord, StoredEvent } from './types.js';
