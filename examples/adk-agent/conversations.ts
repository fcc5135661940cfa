// The example's conversations: each creates a session for one of three users
// and sends three messages through the Runner.
import { Runner, stringifyContent, type BaseLlm, type BaseSessionService } from '@google/adk';
import { APP_NAME, createConciergeAgent } from './agent';

const USERS = [
  { userId: 'ada', name: 'Ada' },
  { userId: 'grace', name: 'Grace' },
  { userId: 'alan', name: 'Alan' },
];

const CONVERSATIONS = [
  ['Hi! I like jazz.', 'Any plans you would suggest for tonight?', 'Thanks, bye!'],
  ['I love hiking in the mountains.', 'What do you remember about me?', 'See you soon.'],
  ['I enjoy Italian food.', 'Where should I eat?', 'Great, thank you.'],
];

export interface ConversationOptions {
  model: BaseLlm;
  sessionService: BaseSessionService;
  count: number;
  log?: (line: string) => void;
}

/** Runs `count` conversations (users ada, grace, alan in turn); returns the ids of the sessions created. */
export async function runConversations({ model, sessionService, count, log = () => undefined }: ConversationOptions): Promise<string[]> {
  const runner = new Runner({ appName: APP_NAME, agent: createConciergeAgent(model), sessionService });
  const sessionIds: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const user = USERS[i % USERS.length] ?? { userId: 'guest', name: 'Guest' };
    const messages = CONVERSATIONS[i % CONVERSATIONS.length] ?? [];
    const session = await sessionService.createSession({
      appName: APP_NAME,
      userId: user.userId,
      state: { 'user:name': user.name, topic: 'evening plans' },
    });
    sessionIds.push(session.id);
    log(`\n${user.userId} / session ${session.id}`);
    for (const text of messages) {
      log(`  ${user.name}: ${text}`);
      const newMessage = { role: 'user', parts: [{ text }] };
      for await (const event of runner.runAsync({ userId: user.userId, sessionId: session.id, newMessage })) {
        const said = stringifyContent(event);
        if (said) log(`  ${event.author}: ${said}`);
        for (const call of event.content?.parts ?? []) {
          if (call.functionCall) log(`  ${event.author} → ${call.functionCall.name}(${JSON.stringify(call.functionCall.args)})`);
        }
      }
    }
  }
  return sessionIds;
}
