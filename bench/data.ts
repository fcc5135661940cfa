// The shape of what the workloads write: event bodies and state deltas.
import type { BenchEvent, Delta, SeedSession } from './implementations/types';

/** ~200 characters of model output per event: a realistic, small event. */
const TEXT = 'The quick brown fox jumps over the lazy dog. '.repeat(5).trim();

/**
 * Sequential appends: a session key, a `user:` key and, every 10th event,
 * an `app:` key.
 */
export function appendEvent(i: number): BenchEvent {
  const stateDelta: Delta = { [`k${i % 5}`]: i, 'user:last_turn': i };
  if (i % 10 === 0) stateDelta['app:counter'] = i;
  return { author: 'agent', invocationId: `inv-${Math.floor(i / 4)}`, text: `${TEXT} #${i}`, stateDelta };
}

/**
 * Concurrent appends: writer `w`'s i-th event sets a `user:` key no other
 * write touches, so every key that is missing afterwards is a lost write.
 */
export function concurrentEvent(writer: number, i: number): BenchEvent {
  const stateDelta: Delta = { [`k${i % 5}`]: i, [`user:w${writer}_${i}`]: i };
  if (i % 10 === 0) stateDelta['app:counter'] = i;
  return { author: 'agent', invocationId: `inv-${writer}-${i}`, text: `${TEXT} #${writer}.${i}`, stateDelta };
}

export function concurrentKey(writer: number, i: number): string {
  return `user:w${writer}_${i}`;
}

/** Initial state of created sessions: a session key, a `user:` key. */
export function createState(i: number): Delta {
  return { topic: 'bench', turn: i, 'user:plan': 'pro' };
}

/** The list fixture: `users` users with `perUser` sessions each (user 0 is the one listed). */
export function listSessions(users: number, perUser: number): SeedSession[] {
  const sessions: SeedSession[] = [];
  for (let u = 0; u < users; u++) {
    for (let i = 0; i < perUser; i++) {
      sessions.push({ userId: `lu${u}`, sessionId: `ls-${u}-${i}`, state: { topic: 'list', n: i, 'user:plan': `p${u}` } });
    }
  }
  return sessions;
}
