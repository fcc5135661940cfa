// The example agent under Playwright with statehouse/playwright: seed the
// user's state, run the agent (scripted model, sessions written over HTTP),
// assert on what it stored with the matchers and on the console with the
// page objects. In another repository the imports are 'statehouse/playwright'
// and 'statehouse/adk'.
import { Runner, type BaseSessionService } from '@google/adk';
import { expect, test, type SeededSession } from '../../../playwright/index.js';
import { APP_NAME, createConciergeAgent } from '../agent';
import { HttpSessionService } from '../../../lib/agent-service/http-session-service';
import { ScriptedConciergeModel } from '../scripted-model';

// The agent's app name is fixed, so tests share it and each gets users of its own.
test.use({ statehouseNamespace: 'user', statehouseApp: APP_NAME });

/** One turn of the concierge on the seeded session, as the agent's own server would run it. */
async function say(sessionService: BaseSessionService, session: SeededSession, text: string): Promise<void> {
  const runner = new Runner({ appName: session.appName, agent: createConciergeAgent(new ScriptedConciergeModel()), sessionService });
  const newMessage = { role: 'user', parts: [{ text }] };
  for await (const event of runner.runAsync({ userId: session.userId, sessionId: session.sessionId, newMessage })) {
    void event; // the assertions read what Statehouse stored, not the stream
  }
}

test('remembers what the user likes, in user state, with the event that wrote it', async ({ statehouse, statehouseConsole }) => {
  const session = await statehouse.seed({ user: 'ada', state: { 'user:name': 'Ada', topic: 'evening plans' } });
  const sessions = new HttpSessionService({ baseURL: statehouse.client.baseURL });

  await say(sessions, session, 'Hi! I like jazz.');

  // user message, function call, function response (writes user:preferences), reply (writes last_answer)
  await expect(session).toHaveEventCount(4);
  await expect(session).toHaveEvent({ author: 'concierge', stateDelta: { 'user:preferences': ['jazz'] } });
  await expect(session).toHaveState({ 'user:name': 'Ada', 'user:preferences': ['jazz'], topic: 'evening plans' });
  await expect(session).toHaveStateKey('last_answer', "Noted, Ada: I'll remember you like jazz.");
  await expect(session).not.toHaveStateKey('temp:just_saved');

  const view = await statehouseConsole.session(session);
  await expect(view.stateRow('user', 'preferences')).toContainText('"jazz"');
  await expect(view.eventChange(3, 'user:preferences')).toBeVisible();
  await view.travelTo(1);
  await expect(view.stateRow('user', 'preferences')).toHaveCount(0);
  await view.backToNow();
  await expect(view.stateRow('user', 'preferences')).toBeVisible();
});

test('starts from what an earlier conversation stored for the user', async ({ statehouse, statehouseConsole }) => {
  await statehouse.seed({ user: 'grace', session: false, state: { 'user:name': 'Grace', 'user:preferences': ['hiking'] } });
  const session = await statehouse.seed({ user: 'grace', state: { topic: 'weekend' } });
  const sessions = new HttpSessionService({ baseURL: statehouse.client.baseURL });

  await say(sessions, session, 'What do you remember about me?');

  await expect(session).toHaveEvent({ author: 'concierge', text: 'hiking' });
  await expect(session).toHaveEventCount(2);

  // Support edits the user's preferences in the console; the agent's next turn reads them.
  const view = await statehouseConsole.session(session);
  await view.editState('user', 'preferences', ['hiking', 'tea'], 'the customer told support');
  await expect(session).toHaveStateKey('user:preferences', ['hiking', 'tea']);
  await say(sessions, session, 'And now?');
  await expect(session).toHaveEvent({ author: 'concierge', text: 'tea' });
});
