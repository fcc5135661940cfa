// Assertions on a session that retry until they hold or the expect timeout
// passes, like Playwright's web-first assertions: agents write
// asynchronously, so the state a test expects may not be there yet.
import type { ExpectMatcherState, MatcherReturnType } from '@playwright/test';
import { asSessionRef, clientOf, describeRef } from './handles.js';
import { hasSubset, jsonEqual, pick } from './json-match.js';
import type { JsonValue, SessionJson, SessionRef, StateRecord, StoredEvent } from './types.js';

export interface RetryOptions {
  /** Milliseconds; default the expect timeout (`expect.timeout` in the config, 5 s by default). */
  timeout?: number;
}

export interface StateOptions extends RetryOptions {
  /** The whole state must equal `expected` (default: `expected` is a subset). */
  exact?: boolean;
}

/** An event `toHaveEvent` looks for; every field given must match. */
export interface EventPattern {
  author?: string;
  invocationId?: string;
  /** Keys the event's delta must have with these values (a subset). */
  stateDelta?: StateRecord;
  /** Text its content parts must contain. */
  text?: string;
}

const POLL_INTERVALS = [100, 250, 500, 1000];

type Check = (session: SessionJson) => { pass: boolean; expected: unknown; received: unknown; note?: string };

/**
 * Reads the session until `check` gives the answer the assertion wants
 * (pass, or no pass under `.not`) or the time is up; a missing session counts
 * as not matching yet. The message has the matcher's hint, the last reading
 * and a diff.
 */
async function retry(
  state: ExpectMatcherState,
  name: string,
  target: unknown,
  options: RetryOptions | undefined,
  check: Check,
): Promise<MatcherReturnType> {
  const ref = asSessionRef(target);
  if (!ref) {
    return {
      pass: state.isNot,
      name,
      message: () =>
        `${state.utils.matcherHint(name, undefined, undefined, { isNot: state.isNot })}\n\n` +
        `Expected a session ({ appName, userId, sessionId }, e.g. from statehouse.seed()), received ${state.utils.printReceived(target)}`,
    };
  }
  const client = clientOf(target as object);
  const timeout = options?.timeout ?? state.timeout;
  const deadline = Date.now() + timeout;
  let last: ReturnType<Check> | null = null;
  let missing = false;
  let error: unknown = null;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const session = await client.getSession(ref);
      missing = session === null;
      error = null;
      last = session ? check(session) : null;
    } catch (caught) {
      error = caught;
      last = null;
    }
    const pass = last?.pass ?? false;
    if (pass !== state.isNot || Date.now() >= deadline) break;
    const wait = POLL_INTERVALS[Math.min(attempt, POLL_INTERVALS.length - 1)] ?? 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, Math.max(0, deadline - Date.now()))));
  }
  const pass = last?.pass ?? false;
  const hint = state.utils.matcherHint(name, undefined, undefined, { isNot: state.isNot });
  return {
    pass,
    name,
    expected: last?.expected,
    actual: last?.received,
    timeout,
    message: () => {
      const where = `Session: ${describeRef(ref)} (waited up to ${timeout} ms)`;
      if (error) return `${hint}\n\n${where}\nReading it failed: ${error instanceof Error ? error.message : String(error)}`;
      if (missing || !last) return `${hint}\n\n${where}\nThe session does not exist.`;
      const body = state.isNot
        ? `Expected: not ${state.utils.printExpected(last.expected)}\nReceived: ${state.utils.printReceived(last.received)}`
        : state.utils.printDiffOrStringify(last.expected, last.received, 'Expected', 'Received', false);
      return `${hint}\n\n${where}\n${last.note ? `${last.note}\n` : ''}\n${body}`;
    },
  };
}

function textOf(event: StoredEvent): string {
  return (event.content?.parts ?? []).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}

function eventMatches(event: StoredEvent, pattern: EventPattern): boolean {
  if (pattern.author !== undefined && event.author !== pattern.author) return false;
  if (pattern.invocationId !== undefined && event.invocationId !== pattern.invocationId) return false;
  if (pattern.stateDelta !== undefined && !hasSubset(event.actions.stateDelta, pattern.stateDelta)) return false;
  if (pattern.text !== undefined && !textOf(event).includes(pattern.text)) return false;
  return true;
}

/** How many of the pattern's fields an event matches. */
function score(event: StoredEvent, pattern: EventPattern): number {
  let matched = 0;
  if (pattern.author !== undefined && event.author === pattern.author) matched += 1;
  if (pattern.invocationId !== undefined && event.invocationId === pattern.invocationId) matched += 1;
  if (pattern.text !== undefined && textOf(event).includes(pattern.text)) matched += 1;
  for (const [key, value] of Object.entries(pattern.stateDelta ?? {})) {
    if (Object.hasOwn(event.actions.stateDelta, key)) matched += jsonEqual(event.actions.stateDelta[key], value) ? 1 : 0.5;
  }
  return matched;
}

function closestEvent(events: StoredEvent[], pattern: EventPattern): { event: StoredEvent; index: number } | null {
  let best: { event: StoredEvent; index: number; score: number } | null = null;
  events.forEach((event, index) => {
    const value = score(event, pattern);
    if (!best || value > best.score) best = { event, index, score: value };
  });
  return best;
}

/** The event in the pattern's terms: the fields the pattern names, the delta's keys it names. */
function projection(event: StoredEvent, pattern: EventPattern): Record<string, unknown> {
  const seen: Record<string, unknown> = {};
  if (pattern.author !== undefined) seen.author = event.author;
  if (pattern.invocationId !== undefined) seen.invocationId = event.invocationId;
  if (pattern.stateDelta !== undefined) seen.stateDelta = pick(event.actions.stateDelta, Object.keys(pattern.stateDelta));
  if (pattern.text !== undefined) seen.text = textOf(event);
  return seen;
}

/** An event as the failure message shows it: what the pattern can be compared with. */
function summary(event: StoredEvent, index: number): Record<string, unknown> {
  const text = textOf(event);
  return {
    index,
    author: event.author,
    ...(Object.keys(event.actions.stateDelta).length > 0 ? { stateDelta: event.actions.stateDelta } : {}),
    ...(text ? { text: text.length > 80 ? `${text.slice(0, 79)}…` : text } : {}),
  };
}

/*
 * Each matcher's receiver is a session handle (SessionRef): Playwright offers
 * a custom matcher only on values of its receiver's type, so
 * `expect(42).toHaveStateKey('k')` does not compile (matchers.types.test.ts).
 * A value that is not a handle at run time (from `any`) fails with a message.
 */
export const statehouseMatchers = {
  /** The session's merged state (as the agent sees it, `app:`/`user:` prefixed) has these keys and values; `exact` for the whole state. */
  async toHaveState(this: ExpectMatcherState, session: SessionRef, expected: StateRecord, options?: StateOptions) {
    return retry(this, 'toHaveState', session, options, (s) => {
      if (options?.exact) return { pass: jsonEqual(s.state, expected), expected, received: s.state };
      const received = pick(s.state, Object.keys(expected));
      const others = Object.keys(s.state).filter((key) => !Object.hasOwn(expected, key));
      return {
        pass: hasSubset(s.state, expected),
        expected,
        received,
        note: others.length > 0 ? `(a subset: the state's other keys, not compared: ${others.join(', ')})` : undefined,
      };
    });
  },

  /** One key of the merged state; without `value`, only that the key exists. */
  async toHaveStateKey(this: ExpectMatcherState, session: SessionRef, key: string, value?: JsonValue, options?: RetryOptions) {
    return retry(this, 'toHaveStateKey', session, options, (s) => {
      const present = Object.hasOwn(s.state, key);
      const received = present ? { [key]: s.state[key] } : {};
      if (value === undefined)
        return {
          pass: present,
          expected: `a key ${key}`,
          received: present ? received : `no key ${key}; keys: ${Object.keys(s.state).join(', ') || '(none)'}`,
        };
      return { pass: present && jsonEqual(s.state[key], value), expected: { [key]: value }, received };
    });
  },

  /** Some event of the session matches every field of the pattern (author, invocationId, a subset of its stateDelta, text). */
  async toHaveEvent(this: ExpectMatcherState, session: SessionRef, pattern: EventPattern, options?: RetryOptions) {
    return retry(this, 'toHaveEvent', session, options, (s) => {
      const closest = closestEvent(s.events, pattern);
      const listing = s.events.map((event, index) => `  ${JSON.stringify(summary(event, index))}`).join('\n');
      return {
        pass: s.events.some((event) => eventMatches(event, pattern)),
        expected: pattern,
        // The diff is against the event closest to the pattern, in the pattern's terms.
        received: closest ? projection(closest.event, pattern) : 'no events',
        note: `The session's ${s.events.length} event(s):\n${listing || '  (none)'}\n${closest ? `Closest: event index ${closest.index}` : ''}`,
      };
    });
  },

  /** The session has exactly this many events. */
  async toHaveEventCount(this: ExpectMatcherState, session: SessionRef, count: number, options?: RetryOptions) {
    return retry(this, 'toHaveEventCount', session, options, (s) => ({
      pass: s.events.length === count,
      expected: count,
      received: s.events.length,
      note: s.events.length === 0 ? undefined : `Authors in order: ${s.events.map((e) => e.author).join(', ')}`,
    }));
  },
};

/** The matchers' types, for `expect` after `expect.extend(statehouseMatchers)`. */
export type StatehouseMatchers = typeof statehouseMatchers;
