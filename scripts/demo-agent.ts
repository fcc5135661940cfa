// The live part of `npm run demo`: while the console runs, the example ADK
// agent (examples/adk-agent, its scripted model unless GOOGLE_API_KEY or
// GEMINI_API_KEY is set) holds a round of conversations every little while,
// so the apps, app, user and session pages show new sessions arriving.
import { Gemini, type BaseLlm } from '@google/adk';
import { StatehouseSessionService } from '../lib/agent-service';
import { APP_NAME } from '../examples/adk-agent/agent';
import { runConversations } from '../examples/adk-agent/conversations';
import { ScriptedConciergeModel } from '../examples/adk-agent/scripted-model';

function chooseModel(): BaseLlm {
  const apiKey = process.env.GOOGLE_API_KEY || process.env.GEMINI_API_KEY;
  if (!apiKey) return new ScriptedConciergeModel();
  return new Gemini({ model: process.env.GEMINI_MODEL || 'gemini-2.5-flash', apiKey });
}

export interface DemoAgent {
  stop: () => Promise<void>;
}

/** Starts the agent: one conversation every `everyMs`, the first soon after start. Errors are reported and the agent goes on. */
export function startDemoAgent(databaseUrl: string, everyMs: number): DemoAgent {
  const sessionService = new StatehouseSessionService({ databaseUrl });
  const model = chooseModel();
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const round = async () => {
    try {
      const [sessionId] = await runConversations({ model, sessionService, count: 1 });
      console.log(`Demo agent: new session ${sessionId ?? ''} in app "${APP_NAME}" (${model.model}).`);
    } catch (error) {
      console.error(`Demo agent: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const schedule = (delay: number) => {
    timer = setTimeout(() => {
      if (stopped) return;
      running = round().then(() => {
        if (!stopped) schedule(everyMs);
      });
    }, delay);
  };
  schedule(Math.min(everyMs, 5000));

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
      await sessionService.close();
    },
  };
}
