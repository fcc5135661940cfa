// Runs a few conversations of the example agent into a Statehouse database,
// so they show up in the console. Usage (from the project root):
//   npx tsx examples/adk-agent/run.ts [conversations]
import { Gemini, type BaseLlm } from '@google/adk';
import { StatehouseSessionService } from '../../lib/agent-service';
import { databaseUrl } from '../../lib/config';
import { redactUrl } from '../../lib/db';
import { APP_NAME } from './agent';
import { runConversations } from './conversations';
import { ScriptedConciergeModel } from './scripted-model';

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
  const sessionService = new StatehouseSessionService({ databaseUrl: url });
  console.log(`Model ${model.model}; database ${redactUrl(url)}; app "${APP_NAME}".`);
  try {
    await runConversations({ model, sessionService, count, log: (line) => console.log(line) });
  } finally {
    await sessionService.close();
  }
  console.log(`\nDone: open the console and pick the app "${APP_NAME}".`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
