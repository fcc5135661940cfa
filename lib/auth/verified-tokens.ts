/**
 * API tokens this process has verified, so that a request with a known token
 * needs no lookup. Every entry carries the auth epoch (migration
 * 20261125183000_auth_epoch: a counter the database bumps whenever a token
 * may have stopped working) read in the same statement as the token itself.
 * The current epoch is read at most once a second; an entry counts only
 * while its epoch is the current one. So a revocation on any server reaches
 * every server within a second, and a lookup that raced a revocation can
 * never refill the cache with what it revoked.
 */
export const EPOCH_CHECK_MS = 1_000;
const MAX_ENTRIES = 10_000;

export interface VerifiedToken<T> {
  value: T;
  epoch: number;
}

export class VerifiedTokens<T> {
  private readonly entries = new Map<string, VerifiedToken<T>>();
  private epoch: number | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking: Promise<number> | undefined;
  /** Lookups sent before this (this.now's clock) may have raced a change this process made: not kept. */
  private notBefore = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly readEpoch: () => Promise<number>,
    readonly now: () => number = () => performance.now(),
  ) {}

  /** The cached value for a token hash, when its epoch is still the current one. */
  async get(hash: string): Promise<T | undefined> {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    const epoch = await this.currentEpoch();
    if (entry.epoch === epoch) return entry.value;
    this.entries.delete(hash);
    return undefined;
  }

  /** Remembers a token verified at `epoch`, read with it by a statement sent at `readAt` (this.now's clock). */
  set(hash: string, value: T, epoch: number, readAt: number): void {
    if (readAt < this.notBefore) return;
    if (this.epoch === undefined || readAt > this.checkedAt) {
      if (epoch !== this.epoch) this.entries.clear();
      this.epoch = epoch;
      this.checkedAt = readAt;
    }
    this.entries.delete(hash);
    this.entries.set(hash, { value, epoch });
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /** Forgets every entry and the epoch: after a change this process made itself, effective here at once. */
  forgetAll(): void {
    this.notBefore = this.now();
    this.entries.clear();
    this.epoch = undefined;
    this.checkedAt = Number.NEGATIVE_INFINITY;
  }

  /** The epoch as last read, read again when that was a second ago or more (one read for concurrent callers). */
  private currentEpoch(): Promise<number> {
    if (this.epoch !== undefined && this.now() - this.checkedAt < EPOCH_CHECK_MS) return Promise.resolve(this.epoch);
    const started = this.now();
    this.checking ??= this.readEpoch().then(
      (epoch) => {
        if (epoch !== this.epoch) this.entries.clear();
        this.epoch = epoch;
        this.checkedAt = started;
        this.checking = undefined;
        return epoch;
      },
      (error: unknown) => {
        this.checking = undefined;
        throw error;
      },
    );
    return this.checking;
  }
}
