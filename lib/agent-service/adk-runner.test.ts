// An adk-js Runner persisting through our StatehouseSessionService, on SQLite and
// PostgreSQL: what an ADK TypeScript agent writes is what the console reads.
import {
  BaseLlm,
  createEvent,
  FunctionTool,
  LlmAgent,
  Runner,
  type BaseLlmConnection,
  type Event as AdkEvent,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as sessionsRoute from '../../app/api/apps/[app]/users/[user]/sessions/route';
import * as sessionRoute from '../../app/api/apps/[app]/users/[user]/sessions/[id]/route';
import * as eventsRoute from '../../app/api/apps/[app]/users/[user]/sessions/[id]/events/route';
import * as stateRoute from '../../app/api/apps/[app]/users/[user]/sessions/[id]/state/route';
import { call } from '../testing/http';
import { STALE_SESSION_MESSAGE, isSessionServiceError } from '../session-service';
import { testProviders } from '../testing/databases';
import { uniqueName } from '../testing/factories';
import { useTestDatabase } from '../testing/use-test-database';
import { StatehouseSessionService, revisionOf } from './statehouse-session-service';

const providers = await testProviders();

/** What the scripted model saw on each call, copied at call time (adk-js reuses the request object). */
interface SeenRequest {
  systemInstruction: string;
  contents: string;
}

/** A model that plays back canned responses: no network, and it records what it was asked. */
class ScriptedLlm extends BaseLlm {
  readonly seen: SeenRequest[] = [];

  constructor(private readonly script: LlmResponse[]) {
    super({ model: 'scripted' });
  }

  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const instruction = request.config?.systemInstruction;
    this.seen.push({
      systemInstruction: typeof instruction === 'string' ? instruction : JSON.stringify(instruction),
      contents: JSON.stringify(request.contents),
    });
    const next = this.script.shift();
    if (!next) throw new Error('The scripted model ran out of responses.');
    yield next;
  }

  connect(): Promise<BaseLlmConnection> {
    return Promise.reject(new Error('The scripted model has no live mode.'));
  }
}

const text = (value: string): LlmResponse => ({ content: { role: 'model', parts: [{ text: value }] } });

function tutor(model: BaseLlm): LlmAgent {
  const rememberColor = new FunctionTool({
    name: 'remember_color',
    description: "Remembers the user's favourite colour.",
    parameters: z.object({ color: z.string() }),
    execute: ({ color }, context) => {
      context?.state.set('user:favorite_color', color);
      context?.state.set('temp:last_tool', 'remember_color');
      return { saved: color };
    },
  });
  return new LlmAgent({
    name: 'tutor',
    model,
    // {temp:last_tool?} shows temp: state reaching later steps of the same invocation only.
    instruction: 'You tutor {user:name}. Topic: {topic?}. Last tool: {temp:last_tool?}.',
    outputKey: 'last_reply',
    tools: [rememberColor],
  });
}

async function say(runner: Runner, userId: string, sessionId: string, message: string): Promise<AdkEvent[]> {
  const events: AdkEvent[] = [];
  for await (const event of runner.runAsync({ userId, sessionId, newMessage: { role: 'user', parts: [{ text: message }] } })) {
    events.push(event);
  }
  return events;
}

describe.each(providers)('adk-js Runner on %s', (provider) => {
  // The HTTP routes read through their own connection, as the console does beside a running agent.
  const database = useTestDatabase(provider, { serveRoutes: true });
  let sessions: StatehouseSessionService;

  beforeAll(() => {
    sessions = new StatehouseSessionService({ databaseUrl: database.url });
  });
  afterAll(async () => {
    await sessions?.close();
  });

  it('runs a three-turn conversation and stores it with Python-ADK semantics, served by the HTTP API', async () => {
    const appName = uniqueName('app');
    const model = new ScriptedLlm([
      { content: { role: 'model', parts: [{ functionCall: { name: 'remember_color', args: { color: 'teal' } } }] } },
      text('Noted, Ada: teal.'),
      text('Your favourite colour is teal.'),
      text("You're welcome."),
    ]);
    const runner = new Runner({ appName, agent: tutor(model), sessionService: sessions });
    const session = await sessions.createSession({ appName, userId: 'ada', state: { 'user:name': 'Ada', 'temp:x': 1 } });
    expect(session.state).toEqual({ 'user:name': 'Ada' });
    expect(revisionOf(session)).toBe(0);
    const params = { app: appName, user: 'ada', id: session.id };

    const turn1 = await say(runner, 'ada', session.id, 'My favourite colour is teal.');
    // An operator sets the topic over the HTTP API between turns; the agent reads it on its next turn.
    const patched = await call(sessionRoute.PATCH, 'PATCH', { params, body: { state_delta: { topic: 'colours' } } });
    expect(patched.status).toBe(200);
    await say(runner, 'ada', session.id, 'What is my favourite colour?');
    await say(runner, 'ada', session.id, 'Thanks!');

    // The instruction was rendered from stored state: the user's name, the
    // optional topic (empty until the PATCH), temp: state only within turn 1.
    expect(model.seen.map((s) => s.systemInstruction)).toEqual([
      expect.stringContaining('You tutor Ada. Topic: . Last tool: .'),
      expect.stringContaining('You tutor Ada. Topic: . Last tool: remember_color.'),
      expect.stringContaining('You tutor Ada. Topic: colours. Last tool: .'),
      expect.stringContaining('You tutor Ada. Topic: colours. Last tool: .'),
    ]);
    // Turn 2's history came back from storage.
    expect(model.seen[2]?.contents).toContain('My favourite colour is teal.');
    expect(model.seen[2]?.contents).toContain('Noted, Ada: teal.');

    // The Runner yielded the same events it appended, temp: keys trimmed in place.
    const toolEvent = turn1.find((e) => e.content?.parts?.some((p) => p.functionResponse));
    expect(toolEvent?.actions.stateDelta).toEqual({ 'user:favorite_color': 'teal' });

    // The database: nine events (eight from the Runner, one from the PATCH), the tiers split.
    const ref = { appName, userId: 'ada', sessionId: session.id };
    const stored = await database.service.getSession(ref);
    const authors = ['user', 'tutor', 'tutor', 'tutor', 'user', 'user', 'tutor', 'user', 'tutor'];
    expect(stored?.events.map((e) => e.author)).toEqual(authors);
    expect(stored?.revision).toBe(9);
    const tiers = await database.service.getSessionTiers(ref);
    expect(tiers?.user.map((e) => [e.key, e.value])).toEqual([
      ['favorite_color', 'teal'],
      ['name', 'Ada'],
    ]);
    expect(tiers?.session.map((e) => [e.key, e.value])).toEqual([
      ['last_reply', "You're welcome."],
      ['topic', 'colours'],
    ]);
    expect(tiers?.app).toEqual([]);

    // temp: never reached storage: not in events, not in any tier, not in any history.
    const leaks = await database.db.client.$queryRaw<{ n: unknown }[]>`SELECT (SELECT COUNT(*) FROM events WHERE data LIKE '%temp:%')
            + (SELECT COUNT(*) FROM session_state WHERE key LIKE 'temp:%')
            + (SELECT COUNT(*) FROM user_state WHERE key LIKE 'temp:%')
            + (SELECT COUNT(*) FROM app_state WHERE key LIKE 'temp:%')
            + (SELECT COUNT(*) FROM state_changes WHERE key LIKE 'temp:%') AS n`;
    expect(Number(leaks[0]?.n)).toBe(0);

    // Read back through the adk service: milliseconds, the same ids and timestamps the Runner
    // yielded (it yields the agent's events, not the user's message).
    const reloaded = await sessions.getSession(ref);
    expect(turn1).toHaveLength(3);
    expect(reloaded?.events.slice(1, 4).map((e) => [e.id, e.timestamp])).toEqual(turn1.map((e) => [e.id, e.timestamp]));
    expect(reloaded?.lastUpdateTime).toBe(reloaded?.events.at(-1)?.timestamp);
    expect(reloaded?.state).toEqual(stored?.state);
    expect(revisionOf(reloaded!)).toBe(9);

    // What ADK's API server routes answer: camelCase, float seconds, no temp: anywhere.
    const served = await call(sessionRoute.GET, 'GET', { params });
    expect(served.status).toBe(200);
    expect(served.text).not.toContain('temp:');
    const body = served.json as {
      state: Record<string, unknown>;
      lastUpdateTime: number;
      events: {
        author: string;
        invocationId: string;
        timestamp: number;
        content?: { parts?: object[] };
        actions: { stateDelta: object };
      }[];
    };
    expect(body.state).toEqual({ last_reply: "You're welcome.", topic: 'colours', 'user:name': 'Ada', 'user:favorite_color': 'teal' });
    expect(body.events.map((e) => e.author)).toEqual(authors);
    expect(body.lastUpdateTime).toBeCloseTo((reloaded?.lastUpdateTime ?? 0) / 1000, 6);
    expect(body.events.every((e) => e.timestamp > 1e9 && e.timestamp < 1e11)).toBe(true);
    expect(body.events[1]?.content?.parts?.[0]).toMatchObject({ functionCall: { name: 'remember_color', args: { color: 'teal' } } });
    expect(body.events[2]?.content?.parts?.[0]).toMatchObject({
      functionResponse: { name: 'remember_color', response: { saved: 'teal' } },
    });
    expect(body.events[2]?.actions.stateDelta).toEqual({ 'user:favorite_color': 'teal' });
    expect(body.events[3]).toMatchObject({ author: 'tutor', actions: { stateDelta: { last_reply: 'Noted, Ada: teal.' } } });
    expect(body.events[4]).toMatchObject({
      author: 'user',
      invocationId: expect.stringMatching(/^p-/),
      actions: { stateDelta: { topic: 'colours' } },
    });

    const listed = await call(sessionsRoute.GET, 'GET', { params: { app: appName, user: 'ada' } });
    expect(listed.json).toEqual([expect.objectContaining({ id: session.id, state: body.state, events: [] })]);

    // The dashboard's routes: the event that set a key, and the key's provenance.
    const touched = await call(eventsRoute.GET, 'GET', { params, query: 'key=user%3Afavorite_color' });
    expect(touched.json).toMatchObject({ total: 1, items: [{ seq: 3, event: { id: toolEvent?.id, author: 'tutor' } }] });
    const state = await call(stateRoute.GET, 'GET', { params });
    expect(state.text).not.toContain('temp:');
    expect(state.json).toMatchObject({
      revision: 9,
      eventCount: 9,
      user: [
        { key: 'favorite_color', value: 'teal', lastChange: { actor: 'tutor', eventId: toolEvent?.id, eventSeq: 3 } },
        { key: 'name', value: 'Ada', lastChange: { actor: 'session:create' } },
      ],
    });

    // Another session of the same user sees the user: keys at once.
    const second = await sessions.createSession({ appName, userId: 'ada' });
    expect(second.state).toEqual({ 'user:name': 'Ada', 'user:favorite_color': 'teal' });
    const stranger = await sessions.createSession({ appName, userId: 'bob' });
    expect(stranger.state).toEqual({});
  });

  it('applies temp: keys to the session object but not to storage, and skips partial events', async () => {
    const appName = uniqueName('app');
    const session = await sessions.createSession({ appName, userId: 'u', sessionId: 's' });
    const event = createEvent({ invocationId: 'i', author: 'agent', actions: { stateDelta: { 'temp:t': 1, k: 2 } } });
    const returned = await sessions.appendEvent({ session, event });
    expect(returned).toBe(event);
    expect(event.actions.stateDelta).toEqual({ k: 2 });
    expect(session.state).toEqual({ 'temp:t': 1, k: 2 });
    expect(session.events).toEqual([event]);
    expect(session.lastUpdateTime).toBe(event.timestamp);

    const partial = createEvent({ invocationId: 'i', author: 'agent', partial: true, actions: { stateDelta: { p: 1 } } });
    expect(await sessions.appendEvent({ session, event: partial })).toBe(partial);
    expect(session.events).toHaveLength(1);

    const stored = await database.service.getSession({ appName, userId: 'u', sessionId: 's' });
    expect(stored?.state).toEqual({ k: 2 });
    expect(stored?.events.map((e) => e.actions.stateDelta)).toEqual([{ k: 2 }]);
  });

  it('rewinds as adk-python does: a user event naming the invocation, session keys restored', async () => {
    const appName = uniqueName('app');
    const session = await sessions.createSession({ appName, userId: 'u', sessionId: 's' });
    await sessions.appendEvent({ session, event: createEvent({ invocationId: 'i1', author: 'agent', actions: { stateDelta: { k: 1 } } }) });
    await sessions.appendEvent({
      session,
      event: createEvent({ invocationId: 'i2', author: 'agent', actions: { stateDelta: { k: 2, extra: true, 'user:u': 1 } } }),
    });
    const rewound = await sessions.rewindSession({ appName, userId: 'u', sessionId: 's', rewindBeforeInvocationId: 'i2' });
    expect(rewound.state).toEqual({ k: 1, extra: null, 'user:u': 1 });
    expect(rewound.events.at(-1)).toMatchObject({ author: 'user', actions: { rewindBeforeInvocationId: 'i2' } });
    await expect(sessions.rewindSession({ appName, userId: 'u', sessionId: 's', rewindBeforeInvocationId: 'nope' })).rejects.toThrow(
      'Invocation ID not found: nope',
    );
  });

  it('takes getSession config in milliseconds and returns undefined when absent', async () => {
    const appName = uniqueName('app');
    const session = await sessions.createSession({ appName, userId: 'u', sessionId: 's' });
    for (const timestamp of [1_700_000_000_100, 1_700_000_000_200, 1_700_000_000_300]) {
      await sessions.appendEvent({ session, event: createEvent({ invocationId: 'i', author: 'a', timestamp }) });
    }
    const key = { appName, userId: 'u', sessionId: 's' };
    const times = async (config: object) => (await sessions.getSession({ ...key, config }))?.events.map((e) => e.timestamp);
    expect(await times({ afterTimestamp: 1_700_000_000_200 })).toEqual([1_700_000_000_200, 1_700_000_000_300]);
    expect(await times({ numRecentEvents: 1 })).toEqual([1_700_000_000_300]);
    expect(await times({ numRecentEvents: 0 })).toEqual([]);
    expect(await sessions.getSession({ ...key, userId: 'other' })).toBeUndefined();
    expect(await sessions.getSession({ ...key, sessionId: 'missing' })).toBeUndefined();

    const listed = await sessions.listSessions({ appName, limit: 1 });
    expect(listed).toMatchObject({ page: 1, limit: 1, totalItems: 1, totalPages: 1 });
    expect(listed.sessions[0]?.events).toEqual([]);
    await sessions.deleteSession(key);
    await sessions.deleteSession(key); // missing: a no-op
    expect(await sessions.getSession(key)).toBeUndefined();
  });

  it('refuses ids the console could not address, before touching the database', async () => {
    const appName = uniqueName('app');
    await expect(sessions.createSession({ appName, userId: 'a/b' })).rejects.toThrow('userId "a/b" must not contain "/" or "\\".');
    await expect(sessions.createSession({ appName, userId: 'u', sessionId: ' s' })).rejects.toThrow(
      'sessionId " s" must not start or end with whitespace.',
    );
    await expect(sessions.createSession({ appName: '..', userId: 'u' })).rejects.toThrow('appName ".." must not be ".."');
    expect((await sessions.listSessions({ appName })).sessions).toEqual([]);
  });

  it('accepts exactly one of two stale copies appending concurrently', async () => {
    const appName = uniqueName('app');
    await sessions.createSession({ appName, userId: 'u', sessionId: 's' });
    const key = { appName, userId: 'u', sessionId: 's' };
    const [a, b] = await Promise.all([sessions.getSession(key), sessions.getSession(key)]);
    if (!a || !b) throw new Error('session not found');
    const append = (session: typeof a, value: string) =>
      sessions.appendEvent({
        session,
        event: createEvent({ invocationId: 'i', author: 'agent', actions: { stateDelta: { winner: value, 'user:w': value } } }),
      });

    const results = await Promise.allSettled([append(a, 'a'), append(b, 'b')]);
    const fulfilled = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(isSessionServiceError(rejected[0]) && rejected[0].code).toBe('STALE_SESSION');
    expect((rejected[0] as Error).message).toBe(STALE_SESSION_MESSAGE);

    const [winner, loser] = results[0]?.status === 'fulfilled' ? [a, b] : [b, a];
    const winnerValue = winner === a ? 'a' : 'b';
    // The loser's object is untouched; the winner's stays current and keeps appending.
    expect(loser.events).toEqual([]);
    expect(loser.state).toEqual({});
    await append(winner, winnerValue);
    await expect(append(loser, 'late')).rejects.toThrow(STALE_SESSION_MESSAGE);

    const stored = await database.service.getSession(key);
    expect(stored?.events).toHaveLength(2);
    expect(stored?.state).toEqual({ winner: winnerValue, 'user:w': winnerValue });

    // A copy the service did not hand out is judged by its clock: the loser's is stale, the winner's current.
    await expect(append({ ...loser }, 'copy')).rejects.toThrow(STALE_SESSION_MESSAGE);
    await append({ ...winner }, 'copy');
    // A missing session is adk-js DatabaseSessionService's "not found".
    const orphan = await sessions.getSession(key);
    await sessions.deleteSession(key);
    await expect(append(orphan!, 'x')).rejects.toThrow('Session s not found for appendEvent');
  });
});
