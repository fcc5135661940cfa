// Data builders shared by the demo seed (prisma/seed.ts) and the end-to-end
// fixtures (e2e/fixtures.ts). Everything goes through the SessionStore, so
// seeded and test data take exactly the path an agent's writes take.
//
// Imports are relative (no `@/`): Playwright loads this file with its own
// TypeScript transform, which does not know the project's path alias.
import type { Event, JsonObject, NewEvent, Session, SessionStore, StateRecord } from '../session-service';
import { appendEvent } from '../session-service/append';

/** A name no other test run or worker will produce: `<prefix>-<time>-<random>`. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** ADK's invocation ids look like `e-<uuid>`; one invocation groups a turn's events. */
export function invocationId(): string {
  return `e-${crypto.randomUUID()}`;
}

export interface SessionOverrides {
  appName?: string;
  userId?: string;
  sessionId?: string;
  state?: StateRecord;
}

/** Creates a session; anything not given gets a unique name. */
export function makeSession(service: SessionStore, overrides: SessionOverrides = {}): Promise<Session> {
  return service.createSession({
    appName: overrides.appName ?? uniqueName('app'),
    userId: overrides.userId ?? uniqueName('user'),
    sessionId: overrides.sessionId ?? uniqueName('session'),
    state: overrides.state,
  });
}

export interface EventOptions {
  invocationId?: string;
  /** Float seconds; appendEvents fills it in when absent. */
  timestamp?: number;
  /** Scoped keys as an agent writes them: `app:x`, `user:x`, `temp:x` or plain session keys. */
  stateDelta?: StateRecord;
  /** Any other event fields (usageMetadata, turnComplete, branch, ...). */
  extra?: Partial<NewEvent>;
}

function withOptions(event: NewEvent, options: EventOptions): NewEvent {
  const { extra = {} } = options;
  return {
    ...event,
    ...extra,
    ...(options.invocationId !== undefined && { invocationId: options.invocationId }),
    ...(options.timestamp !== undefined && { timestamp: options.timestamp }),
    actions: { ...event.actions, ...extra.actions, ...(options.stateDelta && { stateDelta: options.stateDelta }) },
  };
}

/**
 * A text turn. `author` is `user` for the person and the agent's name for
 * the model, which is how ADK records them; the content role follows.
 */
export function textEvent(author: string, text: string, options: EventOptions = {}): NewEvent {
  const role = author === 'user' ? 'user' : 'model';
  return withOptions({ author, content: { role, parts: [{ text }] } }, options);
}

export interface ToolCall {
  name: string;
  args?: JsonObject;
  response: JsonObject;
  /** Ties the call to its response; generated when absent. */
  callId?: string;
}

/**
 * A function call and its response, as ADK records a tool run: both authored
 * by the agent, the call with role `model`, the response with role `user`.
 * A tool writes state through its context, so the delta rides on the response.
 */
export function toolCallEvents(agent: string, call: ToolCall, options: EventOptions = {}): [NewEvent, NewEvent] {
  const callId = call.callId ?? `adk-${crypto.randomUUID()}`;
  const sharedInvocation = options.invocationId ?? invocationId();
  const request = withOptions(
    {
      author: agent,
      content: { role: 'model', parts: [{ functionCall: { id: callId, name: call.name, args: call.args ?? {} } }] },
    },
    { ...options, invocationId: sharedInvocation, stateDelta: undefined },
  );
  const response = withOptions(
    {
      author: agent,
      content: { role: 'user', parts: [{ functionResponse: { id: callId, name: call.name, response: call.response } }] },
    },
    { ...options, invocationId: sharedInvocation, timestamp: undefined },
  );
  return [request, response];
}

/** An event that only changes state (what the API's PATCH appends). */
export function stateDeltaEvent(author: string, stateDelta: StateRecord, options: EventOptions = {}): NewEvent {
  return withOptions({ author }, { ...options, stateDelta });
}

/** Tests' shorthand: an agent's state change in invocation `inv-1`; `extra` sets any other field (id, author, timestamp ...). */
export function agentDelta(stateDelta: StateRecord, extra: Partial<NewEvent> = {}): NewEvent {
  return { author: 'agent', invocationId: 'inv-1', ...extra, actions: { stateDelta } };
}

export interface AppendOptions {
  /** Timestamp (float seconds) for the first event that has none; default now. */
  startAt?: number;
  /** Seconds between consecutive events that have no timestamp; default 1. */
  spacingSeconds?: number;
}

/**
 * Appends events in order through one session object (each append advances
 * its revision). Events without a timestamp are spaced from `startAt`, so a
 * conversation can be placed in the past.
 */
export async function appendEvents(
  service: SessionStore,
  session: Session,
  events: NewEvent[],
  options: AppendOptions = {},
): Promise<Event[]> {
  const spacing = options.spacingSeconds ?? 1;
  let clock = options.startAt ?? Date.now() / 1000;
  const appended: Event[] = [];
  for (const event of events) {
    const timestamp = event.timestamp ?? clock;
    appended.push(await appendEvent(service, session, { ...event, timestamp }));
    clock = timestamp + spacing;
  }
  return appended;
}
