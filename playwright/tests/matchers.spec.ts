// The matchers wait for what an agent writes later, and when it never comes
// they fail after the timeout with a diff a person can read.
import { test as base } from '@playwright/test';
import { expect, test, type SessionRef } from '../index.js';

/** The assertion's failure, with how long it took to fail. */
async function failure(assertion: Promise<unknown>): Promise<{ message: string; ms: number }> {
  const started = Date.now();
  try {
    await assertion;
  } catch (error) {
    // Terminal colours off: the diff's words, not its escapes.
    return { message: String(error instanceof Error ? error.message : error).replace(/\u001b\[[0-9;]*m/g, ''), ms: Date.now() - started };
  }
  throw new Error('expected the assertion to fail');
}

test('wait for an agent that writes after the assertion started', async ({ statehouse }) => {
  const session = await statehouse.seed({ state: { topic: 'tea' } });
  const started = Date.now();
  setTimeout(() => {
    void statehouse.client.appendEvent(session, { author: 'agent', actions: { stateDelta: { topic: 'coffee', 'user:plan': 'pro' } } });
  }, 1200);
  await expect(session).toHaveState({ topic: 'coffee' });
  expect(Date.now() - started).toBeGreaterThanOrEqual(1100);
  await expect(session).toHaveStateKey('user:plan', 'pro');
  await expect(session).toHaveStateKey('user:plan');
  await expect(session).toHaveEvent({ author: 'agent', stateDelta: { topic: 'coffee' } });
  await expect(session).toHaveEventCount(1);
  await expect(session).toHaveState({ topic: 'coffee', 'user:plan': 'pro' }, { exact: true });
  await expect(session).not.toHaveStateKey('temp:x');
  await expect(session).not.toHaveEvent({ author: 'someone else' });
});

test('a session created later by the agent counts once it exists', async ({ statehouse }) => {
  const session = statehouse.session('made-later');
  setTimeout(() => {
    void statehouse.client.createSession({ appName: session.appName, userId: session.userId, sessionId: 'made-later' }, { step: 1 });
  }, 600);
  await expect(session).toHaveStateKey('step', 1);
});

test('time out with a diff of the keys compared, each matcher', async ({ statehouse }) => {
  const session = await statehouse.seed({
    state: { topic: 'tea', 'user:name': 'Ada', 'app:tone': 'warm' },
    events: [{ author: 'concierge', actions: { stateDelta: { topic: 'tea' } } }],
  });

  const state = await failure(expect(session).toHaveState({ topic: 'coffee', 'user:name': 'Ada' }, { timeout: 800 }));
  expect(state.ms).toBeGreaterThanOrEqual(750);
  expect(state.message).toContain('toHaveState');
  expect(state.message).toContain(`Session: ${session.appName}/user/${session.sessionId} (waited up to 800 ms)`);
  expect(state.message).toContain('-   "topic": "coffee",');
  expect(state.message).toContain('+   "topic": "tea",');
  expect(state.message).toContain("the state's other keys, not compared: app:tone");

  const exact = await failure(expect(session).toHaveState({ topic: 'tea' }, { exact: true, timeout: 300 }));
  expect(exact.message).toContain('+   "user:name": "Ada",');

  const key = await failure(expect(session).toHaveStateKey('user:name', 'Grace', { timeout: 300 }));
  expect(key.message).toContain('-   "user:name": "Grace",');
  expect(key.message).toContain('+   "user:name": "Ada",');

  const missing = await failure(expect(session).toHaveStateKey('user:plan', undefined, { timeout: 300 }));
  expect(missing.message).toContain('no key user:plan; keys: topic, app:tone, user:name');

  const event = await failure(expect(session).toHaveEvent({ author: 'concierge', stateDelta: { topic: 'coffee' } }, { timeout: 300 }));
  expect(event.message).toContain('"author": "concierge"');
  expect(event.message).toMatch(/-\s+"topic": "coffee"/);

  const count = await failure(expect(session).toHaveEventCount(3, { timeout: 300 }));
  expect(count.message).toContain('Expected: 3');
  expect(count.message).toContain('Received: 1');
  expect(count.message).toContain('Authors in order: concierge');

  const negated = await failure(expect(session).not.toHaveStateKey('topic', 'tea', { timeout: 300 }));
  expect(negated.message).toContain('Expected: not');

  const absent = await failure(expect(statehouse.session('never')).toHaveEventCount(0, { timeout: 300 }));
  expect(absent.message).toContain('The session does not exist.');
});

test('the default timeout is the expect timeout', async ({ statehouse }) => {
  const session = await statehouse.seed({ state: { topic: 'tea' } });
  const slow = await failure(expect.configure({ timeout: 1500 })(session).toHaveStateKey('topic', 'coffee'));
  expect(slow.ms).toBeGreaterThanOrEqual(1400);
  expect(slow.message).toContain('waited up to 1500 ms');
});

base('a value that is not a session is named in the message', async () => {
  // From untyped data (JSON), so the compiler cannot refuse it as it refuses a literal.
  const result = await failure(expect(JSON.parse('{"id": "x"}') as SessionRef).toHaveEventCount(1));
  expect(result.message).toContain('Expected a session ({ appName, userId, sessionId }');
});
