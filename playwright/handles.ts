// What a matcher or page object needs to find a session: its ref, and the
// client that can read it (the test's, when the handle came from the fixture).
import { StatehouseClient } from './client.js';
import type { SessionRef } from './types.js';

const clients = new WeakMap<object, StatehouseClient>();
let defaultClient: StatehouseClient | undefined;

/** Ties a handle to the client that made it, so assertions read through the same server and token. */
export function bindClient<T extends object>(handle: T, client: StatehouseClient): T {
  clients.set(handle, client);
  return handle;
}

/** The handle's client, else one for STATEHOUSE_URL / STATEHOUSE_TOKEN. */
export function clientOf(handle: object): StatehouseClient {
  return clients.get(handle) ?? (defaultClient ??= new StatehouseClient());
}

/** A session ref, or a value that is not one (for the matchers' error message). */
export function asSessionRef(value: unknown): SessionRef | null {
  if (typeof value !== 'object' || value === null) return null;
  const { appName, userId, sessionId } = value as Record<string, unknown>;
  if (typeof appName !== 'string' || typeof userId !== 'string' || typeof sessionId !== 'string') return null;
  return { appName, userId, sessionId };
}

export function describeRef(ref: SessionRef): string {
  return `${ref.appName}/${ref.userId}/${ref.sessionId}`;
}
