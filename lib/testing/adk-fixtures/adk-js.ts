// Test fixtures for the adk-js family, written by adk-js itself: its
// DatabaseSessionService (@google/adk 2.0.0, MikroORM) creates the tables
// and writes every row, so the store is exactly what an adk-js agent leaves.
import { createEvent, createEventActions, DatabaseSessionService, type Event as AdkEvent, type Session as AdkSession } from '@google/adk';
import { sqliteFilePath } from '../../db/url';
import type { ScenarioSession } from './scenario';
import { decodeAdkJsEvent } from '../../stores/adk/js/event-codec';

/** adk-js's connection string for a Statehouse database URL (`file:` for SQLite, as Statehouse spells it). */
export function adkJsConnectionString(url: string): string {
  return url.startsWith('file:') ? `sqlite://${sqliteFilePath(url)}` : url;
}

/** An adk-js DatabaseSessionService on `url`; `init()` creates its tables on a fresh database. */
export async function adkJsService(url: string): Promise<DatabaseSessionService & { close(): Promise<void> }> {
  const service = new DatabaseSessionService(adkJsConnectionString(url));
  await service.init();
  const orm = (service as unknown as { orm: { close(force?: boolean): Promise<void> } }).orm;
  return Object.assign(service, { close: () => orm.close(true) });
}

export interface AdkJsFixture {
  /** The shop app's first session: five events touching every tier. */
  alice: AdkSession;
  bob: AdkSession;
  other: AdkSession;
  /** Event timestamps of alice's session, milliseconds, in order. */
  aliceTimes: number[];
}

const BASE_MS = Date.UTC(2026, 10, 20, 9, 0, 0);

function event(fields: Partial<AdkEvent> & { author: string }, at: number): AdkEvent {
  return createEvent({ invocationId: 'inv-1', timestamp: BASE_MS + at, ...fields });
}

/**
 * The scenario every adk-js test reads: app `shop` (users alice and bob),
 * app `desk` (one session). Alice's session changes each tier, overwrites a
 * key (so deltas have old values) and calls a tool.
 */
export async function writeAdkJsFixture(url: string): Promise<AdkJsFixture> {
  const service = await adkJsService(url);
  try {
    const alice = await service.createSession({
      appName: 'shop',
      userId: 'alice',
      sessionId: 'alice-1',
      state: { 'app:theme': 'dark', 'user:name': 'Alice', cart: [] },
    });
    const steps: AdkEvent[] = [
      event({ author: 'user', content: { role: 'user', parts: [{ text: 'I like tea' }] } }, 1_000),
      event(
        {
          author: 'shopkeeper',
          content: { role: 'model', parts: [{ functionCall: { id: 'call-1', name: 'add_to_cart', args: { item: 'tea' } } }] },
        },
        2_000,
      ),
      event(
        {
          author: 'shopkeeper',
          content: { role: 'user', parts: [{ functionResponse: { id: 'call-1', name: 'add_to_cart', response: { ok: true } } }] },
          actions: createEventActions({ stateDelta: { cart: ['tea'], 'user:likes': ['tea'], 'temp:scratch': 1 } }),
        },
        3_000,
      ),
      event(
        {
          author: 'shopkeeper',
          content: { role: 'model', parts: [{ text: 'Added tea.' }] },
          actions: createEventActions({ stateDelta: { last_reply: 'Added tea.', 'app:theme': 'light' } }),
        },
        4_000,
      ),
      event(
        {
          author: 'shopkeeper',
          invocationId: 'inv-2',
          content: { role: 'model', parts: [{ text: 'Anything else?' }] },
          actions: createEventActions({ stateDelta: { cart: ['tea', 'cups'], 'user:name': 'Alice B.' } }),
        },
        5_000,
      ),
    ];
    for (const step of steps) await service.appendEvent({ session: alice, event: step });

    const bob = await service.createSession({ appName: 'shop', userId: 'bob', sessionId: 'bob-1', state: { 'user:name': 'Bob' } });
    await service.appendEvent({
      session: bob,
      event: event({ author: 'user', content: { role: 'user', parts: [{ text: 'hello' }] } }, 6_000),
    });
    const other = await service.createSession({ appName: 'desk', userId: 'carol', sessionId: 'desk-1', state: { ticket: 7 } });
    return { alice, bob, other, aliceTimes: steps.map((s) => s.timestamp) };
  } finally {
    await service.close();
  }
}

/**
 * Runs `fn` with the clock at `ms`: adk-js stamps create_time and the tiers'
 * update_time with `new Date()`, and the shared scenario pins every time.
 */
async function atTime<R>(ms: number, fn: () => Promise<R>): Promise<R> {
  const RealDate = Date;
  class ScenarioDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(ms);
      else super(...(args as [number]));
    }
    static override now(): number {
      return ms;
    }
  }
  globalThis.Date = ScenarioDate as DateConstructor;
  try {
    return await fn();
  } finally {
    globalThis.Date = RealDate;
  }
}

/** The shared scenario (lib/testing/adk-fixtures), written by adk-js's DatabaseSessionService: events camelCased, times in ms. */
export async function writeAdkJsScenario(url: string, appName: string, sessions: ScenarioSession[]): Promise<void> {
  const service = await adkJsService(url);
  try {
    for (const scenario of sessions) {
      const ms = Math.round(scenario.created * 1000);
      const session = await atTime(ms, () => service.createSession({ appName, userId: scenario.userId, sessionId: scenario.sessionId }));
      for (const item of scenario.events) {
        const camel = decodeAdkJsEvent(item, { id: item.id, invocationId: item.invocation_id, timestampMs: item.timestamp * 1000 });
        const at = Math.round(item.timestamp * 1000);
        const adkEvent = createEvent({
          ...(camel as unknown as Partial<AdkEvent>),
          timestamp: at,
          actions: createEventActions(camel.actions as Partial<AdkEvent['actions']>),
        });
        await atTime(at, () => service.appendEvent({ session, event: adkEvent }));
      }
    }
  } finally {
    await service.close();
  }
}
