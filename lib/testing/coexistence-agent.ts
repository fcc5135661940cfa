// One live adk-js agent, run as its own process by coexistence.ts (an agent
// is a process of its own in production, and the console's SQLite driver is
// synchronous: in one process a lock the console waits on would stall the
// agent too). The real Runner with the example's scripted model persists
// through adk-js's DatabaseSessionService; every appendEvent is counted.
// Argument: JSON { url, ref, durationMs }; answer over IPC: a Tally.
import { FunctionTool, LlmAgent, LogLevel, Runner, setLogLevel } from '@google/adk';
import { z } from 'zod';
import { APP_NAME, INSTRUCTION, rememberPreference } from '../../examples/adk-agent/agent';
import { ScriptedConciergeModel } from '../../examples/adk-agent/scripted-model';
import { adkJsService } from './adk-fixtures/adk-js';
import { countFailure, emptyTally, type AgentJob, type AgentReport } from './coexistence-tally';

/**
 * The example's concierge, whose tool also counts saves app-wide: its appends
 * then touch the session, user and app tiers, as many agents' do (the example's
 * own tool touches only user: and temp:, and never takes the app row's lock).
 */
function countingConcierge(): LlmAgent {
  const remember = new FunctionTool({
    name: rememberPreference.name,
    description: rememberPreference.description,
    parameters: z.object({ preference: z.string() }),
    execute: async ({ preference }, context) => {
      if (!context) throw new Error('remember_preference needs a tool context.');
      const saved = context.state.get<unknown>('app:preferences_saved');
      context.state.set('app:preferences_saved', (typeof saved === 'number' ? saved : 0) + 1);
      return rememberPreference.runAsync({ args: { preference }, toolContext: context });
    },
  });
  return new LlmAgent({
    name: 'concierge',
    model: new ScriptedConciergeModel(),
    instruction: INSTRUCTION,
    tools: [remember],
    outputKey: 'last_answer',
  });
}

const MESSAGES = ['I like jazz.', 'Any plans for tonight?', 'I enjoy hiking.', 'What do you remember about me?'];

async function main(job: AgentJob): Promise<void> {
  // The console's events have an author the agent does not know: ADK warns on each turn.
  setLogLevel(LogLevel.ERROR);
  const tally = emptyTally();
  const otherCalls = emptyTally();
  const appendFailed = new WeakSet<object>();
  const service = await adkJsService(job.url);
  try {
    const appendEvent = service.appendEvent.bind(service);
    service.appendEvent = async (request) => {
      try {
        const event = await appendEvent(request);
        tally.ok += 1;
        return event;
      } catch (error) {
        countFailure(tally, error);
        if (error instanceof Object) appendFailed.add(error);
        throw error;
      }
    };
    const runner = new Runner({ appName: APP_NAME, agent: countingConcierge(), sessionService: service });
    process.send?.({ ready: true });
    await new Promise<void>((resolve) => process.once('message', () => resolve()));
    const until = Date.now() + job.durationMs;
    for (let turn = 0; Date.now() < until; turn += 1) {
      const text = MESSAGES[turn % MESSAGES.length] ?? 'Hello.';
      try {
        const newMessage = { role: 'user', parts: [{ text }] };
        for await (const _event of runner.runAsync({ userId: job.ref.userId, sessionId: job.ref.sessionId, newMessage })) {
          // The Runner persists each event as it yields it.
        }
      } catch (error) {
        // A failed append is counted by the wrapper; anything else (a read the Runner makes) here.
        if (!(error instanceof Object && appendFailed.has(error))) countFailure(otherCalls, error);
      }
    }
  } finally {
    await service.close();
  }
  process.send?.({ report: { appends: tally, otherCalls } satisfies AgentReport });
}

const job = JSON.parse(process.argv[2] ?? '{}') as AgentJob;
main(job).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
