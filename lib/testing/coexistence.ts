// A live adk-js agent and the console writing the same store at once. Each
// agent is a process of its own (coexistence-agent.ts: the real Runner and
// adk-js's DatabaseSessionService); the console writes through the
// AdkSessionStore as its actions do, appending to the agents' sessions and
// editing their user and app tiers. Each side's failures are counted, so
// tests and docs/benchmarks.md can say how often the console made the agent fail.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { APP_NAME } from '../../examples/adk-agent/agent';
import type { SessionRef, SessionStore } from '../session-service/store';
import { adkJsService } from './adk-fixtures/adk-js';
import { addTally, countFailure, emptyTally, type AgentJob, type AgentReport, type Tally } from './coexistence-tally';

export type { Tally } from './coexistence-tally';

export interface CoexistenceOptions {
  /** The agent's database (a Statehouse-style URL: `file:` or `postgresql://`). */
  url: string;
  /** The console's view of the same database. */
  store: SessionStore;
  /** Agent processes, each with a session of its own of one user (so they share that user's row and the app's). */
  agents: number;
  /** Concurrent console writers. */
  writers: number;
  /** Pause between one writer's writes (0: as fast as the store answers). */
  writeIntervalMs: number;
  durationMs: number;
}

export interface CoexistenceResult {
  /** The agents' appendEvent calls. */
  agent: Tally;
  /** The agents' other calls (the Runner's reads) that failed. */
  agentOther: Tally;
  console: Tally;
  /** Agent failures per 1,000 agent appends. */
  agentFailuresPerThousand: number;
}

const AGENT_SCRIPT = fileURLToPath(new URL('./coexistence-agent.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface AgentProcess {
  child: ChildProcess;
  ready: Promise<void>;
  done: Promise<AgentReport>;
}

function startAgent(job: AgentJob): AgentProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', AGENT_SCRIPT, JSON.stringify(job)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (message: { ready?: boolean }) => message.ready && resolve());
    child.once('exit', (code) => reject(new Error(`The agent process exited (${code}) before it was ready.`)));
  });
  const done = new Promise<AgentReport>((resolve, reject) => {
    child.on('message', (message: { report?: AgentReport }) => message.report && resolve(message.report));
    child.once('exit', (code) => reject(new Error(`The agent process exited (${code}) without its tally.`)));
  });
  return { child, ready, done };
}

/** One console writer: appends with session, user: and app: keys, then edits the user tier, then the app tier, and again. */
async function consoleWriter(store: SessionStore, refs: SessionRef[], w: number, options: CoexistenceOptions, tally: Tally, until: number) {
  for (let n = 0; Date.now() < until; n += 1) {
    const ref = refs[(w + n) % refs.length];
    if (!ref) return;
    const value = `${w}-${n}`;
    try {
      if (n % 3 === 0) {
        await store.append(
          ref,
          {
            author: 'operator',
            content: { role: 'user', parts: [{ text: `note ${value}` }] },
            actions: { stateDelta: { console_note: value, 'user:console_note': value, 'app:console_note': value } },
          },
          { actor: 'console' },
        );
      } else {
        const scope = n % 3 === 1 ? 'user' : 'app';
        await store.editState({ ...ref, scope, changes: { [`edited_by_${w}`]: value }, actor: 'console', reason: 'coexistence' });
      }
      tally.ok += 1;
    } catch (error) {
      countFailure(tally, error);
    }
    if (options.writeIntervalMs > 0) await sleep(options.writeIntervalMs);
  }
}

/** Runs the agents and the console writers side by side for `durationMs`; what each side saw. */
export async function runCoexistence(options: CoexistenceOptions): Promise<CoexistenceResult> {
  const refs: SessionRef[] = Array.from({ length: options.agents }, (_, i) => ({
    appName: APP_NAME,
    userId: 'ada',
    sessionId: `live-${i}`,
  }));
  const setup = await adkJsService(options.url);
  try {
    for (const ref of refs) await setup.createSession({ ...ref, state: { 'user:name': ref.userId, topic: 'evening plans' } });
  } finally {
    await setup.close();
  }
  const agents = refs.map((ref) => startAgent({ url: options.url, ref, durationMs: options.durationMs }));
  try {
    await Promise.all(agents.map((agent) => agent.ready));
    for (const agent of agents) agent.child.send('go');
    const consoleTally = emptyTally();
    const until = Date.now() + options.durationMs;
    await Promise.all(
      Array.from({ length: options.writers }, (_, w) => consoleWriter(options.store, refs, w, options, consoleTally, until)),
    );
    const agentTally = emptyTally();
    const agentOther = emptyTally();
    for (const report of await Promise.all(agents.map((agent) => agent.done))) {
      addTally(agentTally, report.appends);
      addTally(agentOther, report.otherCalls);
    }
    const appends = agentTally.ok + agentTally.failed;
    return {
      agent: agentTally,
      agentOther,
      console: consoleTally,
      agentFailuresPerThousand: appends === 0 ? 0 : Math.round((agentTally.failed / appends) * 10_000) / 10,
    };
  } finally {
    for (const agent of agents) if (agent.child.exitCode === null) agent.child.kill();
  }
}
