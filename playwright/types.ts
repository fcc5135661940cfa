// The shapes the kit reads from Statehouse's HTTP API (docs/api.md), checked
// with zod as they arrive: a test should fail on a server that answers
// something else, not assert against undefined.
import { z } from 'zod';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
/** State as an agent sees it: merged tiers, keys prefixed by scope (`app:`, `user:`, none for the session). */
export type StateRecord = Record<string, JsonValue>;

const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);
const stateRecord = z.record(z.string(), jsonValue);

/** An ADK event as stored (camelCase); fields the kit does not read are kept as they came. */
export const eventSchema = z.looseObject({
  id: z.string(),
  invocationId: z.string(),
  author: z.string(),
  /** Float seconds since the epoch. */
  timestamp: z.number(),
  content: z
    .looseObject({ role: z.string().optional(), parts: z.array(z.looseObject({ text: z.string().optional() })).optional() })
    .optional(),
  actions: z.looseObject({ stateDelta: stateRecord.default({}) }),
});
export type StoredEvent = z.infer<typeof eventSchema>;

export const sessionSchema = z.object({
  id: z.string(),
  appName: z.string(),
  userId: z.string(),
  state: stateRecord,
  events: z.array(eventSchema),
  lastUpdateTime: z.number(),
});
export type SessionJson = z.infer<typeof sessionSchema>;

export const stateEntriesSchema = z.object({
  entries: z.array(z.looseObject({ key: z.string(), value: jsonValue })),
});

export const appListSchema = z.array(z.string());

/** What an event sent to Statehouse needs; everything else is optional and passed through. */
export interface NewEvent {
  author: string;
  invocationId?: string;
  content?: { role?: string; parts?: Record<string, unknown>[] };
  actions?: { stateDelta?: StateRecord; [field: string]: unknown };
  [field: string]: unknown;
}

/** Where a session lives. */
export interface SessionRef {
  appName: string;
  userId: string;
  sessionId: string;
}

/** What a clear removed (or would, in a dry run). */
export const clearCountSchema = z.object({ dryRun: z.boolean(), sessions: z.number(), events: z.number(), stateKeys: z.number() });
export type ClearCount = z.infer<typeof clearCountSchema>;

/** The kit run that marked a namespace: its Playwright runner, by host and process id. */
export interface TestRun {
  id: string;
  host: string;
  pid: number;
}

const namespaceMarkSchema = z.object({
  appName: z.string(),
  /** '' for a whole app; `@<namespace>` for the users of a shared app whose ids end with it. */
  userSuffix: z.string(),
  run: z.object({ id: z.string(), host: z.string(), pid: z.number() }),
  actor: z.string(),
  /** Seconds since the epoch. */
  time: z.number(),
});
export type NamespaceMark = z.infer<typeof namespaceMarkSchema>;
export const namespaceListSchema = z.object({ items: z.array(namespaceMarkSchema) });

export const userListSchema = z.object({ items: z.array(z.looseObject({ userId: z.string() })) });
