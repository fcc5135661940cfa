// Every server an e2e run starts, in one list: a server's port is E2E_PORT
// plus its place in the list, so no two specs running in parallel can share
// one, and a run stays within E2E_PORT..E2E_PORT+E2E_PORT_SPAN (a helper's range holds
// several runs side by side).
const SERVERS = [
  /** The run's console (playwright.config.ts), the baseURL of every spec. */
  'console',
  /** The same build and database in protected mode, for the sign-in and role specs. */
  'protected console',
  /** statehouse/playwright's shared deployment (playwright/tests/runs.spec.ts). */
  'kit deployment',
  'adk-rust store',
  'adk-go store',
  'adk-js live store',
  'adk-python sqlite wal store',
  'adk-python db local store',
  'adk-python db timestamptz store',
  'adk-python db mysql store',
  'adk-python db schema v2 store',
  'adk-js sqlite store',
  'adk-js postgresql store',
  /** A protected console behind a trusted proxy (e2e/client-address.spec.ts). */
  'client address console',
  /** The standalone build, copied out of the repository (e2e/standalone.spec.ts); the first of two over one database. */
  'standalone console',
  'second standalone console',
  /** The example agent behind adk-js's API server, and the consoles that send to it (e2e/agent-chat.spec.ts). */
  'agent api server sqlite',
  'agent api server postgresql',
  'agent api server native',
  'agent chat console sqlite',
  'agent chat console postgresql',
  'agent chat console native',
  /** An agent server that misbehaves as each request's app says, and a port where none listens (e2e/agent-faults.spec.ts). */
  'misbehaving agent server',
  'agent server that is down',
  'agent faults console',
  'agent faults read-only console',
  /** Two agents' stores side by side (e2e/several-stores.spec.ts). */
  'several stores console',
  /** axe over a console serving an adk-python store (e2e/accessibility-adk.spec.ts). */
  'accessibility adk store console',
  /** Both Redis layouts side by side (e2e/redis-store.spec.ts). */
  'redis stores console',
  /** axe over the other ADK families' stores, one family at a time (e2e/accessibility-adk-families.spec.ts). */
  'accessibility adk families console',
  /** The header search through the index Statehouse keeps of an adk-python store (e2e/adk-search-index.spec.ts). */
  'adk search index console',
] as const;

export type E2eServer = (typeof SERVERS)[number];

/** The widest offset a run may use (Playwright's own servers included). */
export const E2E_PORT_SPAN = 30;
if (SERVERS.length - 1 > E2E_PORT_SPAN)
  throw new Error(`e2e/support/ports.ts: ${SERVERS.length} servers do not fit E2E_PORT + 0..${E2E_PORT_SPAN}`);

/** Set one of these when that port is taken by something outside the run. */
const OVERRIDES: Partial<Record<E2eServer, string>> = {
  'protected console': 'E2E_PROTECTED_PORT',
  'kit deployment': 'KIT_DEPLOYMENT_PORT',
};

export function e2ePort(server: E2eServer): number {
  const variable = OVERRIDES[server];
  const override = variable ? process.env[variable] : undefined;
  if (override) return Number(override);
  return Number(process.env.E2E_PORT || 3100) + SERVERS.indexOf(server);
}

export function e2eUrl(server: E2eServer): string {
  return `http://127.0.0.1:${e2ePort(server)}`;
}
