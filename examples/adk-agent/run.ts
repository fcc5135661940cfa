// Runs a few conversations of the example agent into a Statehouse database,
// so they show up in the console. Usage (from the project root):
//   npx tsx examples/adk-agent/run.ts [conversations]
import { Gemini, Runner, stringifyContent, type BaseLlm } from '@google/adk';
import { PrismaSessionService } from '../../lib/adk';
import { databaseUrl } from '../../lib/config';
import { redactUrl } from '../../lib/db';
import { APP_NAME, createConciergeAgent } from './agent';
import { ScriptedConciergeModel } from './scripted-model';

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

/** Gemini only when a key is set: without one, nothing here touches the network. */
function chooseModel(): BaseLlm {
  const apiKey = process.env.GOOGLE_API_KEY || process.env.GEMINI_API_KEY;
  if (!apiKey) return new ScriptedConciergeModel();
  return new Gemini({ model: process.env.GEMINI_MODEL || 'gemini-2.5-flash', apiKey });
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? process.env.CONVERSATIONS ?? 3);
  if (!Number.isInteger(count) || count < 1) throw new Error('The number of conversations must be a positive integer.');
  const url = databaseUrl();
  const model = chooseModel();
  // The one line that differs from an in-memory agent: new InMemorySessionService() → this.
  const sessionService = new PrismaSessionService({ databaseUrl: url });
  const runner = new Runner({ appName: APP_NAME, agent: createConciergeAgent(model), sessionService });
  console.log(`Model ${model.model}; database ${redactUrl(url)}; app "${APP_NAME}".`);

  try {
    for (let i = 0; i < count; i += 1) {
      const user = USERS[i % USERS.length] ?? { userId: 'guest', name: 'Guest' };
      const messages = CONVERSATIONS[i % CONVERSATIONS.length] ?? [];
      const session = await sessionService.createSession({
        appName: APP_NAME,
        userId: user.userId,
        state: { 'user:name': user.name, topic: 'evening plans' },
      });
      console.log(`\n${user.userId} / session ${session.id}`);
      for (const text of messages) {
        console.log(`  ${user.name}: ${text}`);
        const newMessage = { role: 'user', parts: [{ text }] };
        for await (const event of runner.runAsync({ userId: user.userId, sessionId: session.id, newMessage })) {
          const said = stringifyContent(event);
          if (said) console.log(`  ${event.author}: ${said}`);
          for (const call of event.content?.parts ?? []) {
            if (call.functionCall) console.log(`  ${event.author} → ${call.functionCall.name}(${JSON.stringify(call.functionCall.args)})`);
          }
        }
      }
    }
  } finally {
    await sessionService.close();
  }
  console.log(`\nDone: open the console and pick the app "${APP_NAME}".`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
