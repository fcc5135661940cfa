// Where a long session's timeline keeps its checkpoints (timeline.ts): in
// Statehouse's own database when the store is served (../checkpoint-log.ts),
// so they outlive the process; in memory otherwise. Never in the agent's
// database. A checkpoint is only ever read back under the fingerprint of the
// events it was replayed from, so one kept before the session changed is
// never used.
import type { SessionRef } from '../../../session-service/store';

export interface CheckpointKey extends SessionRef {
  /** Which opened store (its id in the composition root). */
  storeId: string;
}

export interface CheckpointStore {
  /** The seq and fingerprint of each checkpoint kept for the session. */
  fingerprints(key: CheckpointKey): Promise<Map<number, string>>;
  /** The saved state at `seq`, when it was kept under this fingerprint; otherwise null. */
  load(key: CheckpointKey, seq: number, fingerprint: string): Promise<string | null>;
  /** Keeps the state at `seq` (replacing one kept under another fingerprint). */
  save(key: CheckpointKey, seq: number, fingerprint: string, state: string): Promise<void>;
  /** Forgets the checkpoints past `seq` (the session has fewer events now). */
  dropAfter(key: CheckpointKey, seq: number): Promise<void>;
}

interface Kept {
  fingerprint: string;
  state: string;
}

const keyOf = (key: CheckpointKey) => JSON.stringify([key.storeId, key.appName, key.userId, key.sessionId]);

/** Checkpoints in this process only: a store opened on its own (tests, scripts) keeps them while it lives. */
export class MemoryCheckpoints implements CheckpointStore {
  private readonly sessions = new Map<string, Map<number, Kept>>();

  private of(key: CheckpointKey): Map<number, Kept> {
    const found = this.sessions.get(keyOf(key));
    if (found) return found;
    const session = new Map<number, Kept>();
    this.sessions.set(keyOf(key), session);
    return session;
  }

  async fingerprints(key: CheckpointKey): Promise<Map<number, string>> {
    return new Map([...this.of(key)].map(([seq, kept]) => [seq, kept.fingerprint]));
  }

  async load(key: CheckpointKey, seq: number, fingerprint: string): Promise<string | null> {
    const kept = this.of(key).get(seq);
    return kept?.fingerprint === fingerprint ? kept.state : null;
  }

  async save(key: CheckpointKey, seq: number, fingerprint: string, state: string): Promise<void> {
    this.of(key).set(seq, { fingerprint, state });
  }

  async dropAfter(key: CheckpointKey, seq: number): Promise<void> {
    const session = this.of(key);
    for (const kept of [...session.keys()]) if (kept > seq) session.delete(kept);
  }
}
