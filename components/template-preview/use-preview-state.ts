'use client';

import { useQuery } from '@tanstack/react-query';
import { liveStateOptions, stateAsOfOptions } from '@/lib/queries/session';
import { ApiError, retryTransient } from '@/lib/queries/session-api';
import type { SpelledJson } from '@/lib/session-service/json-spelling';
import { mergedRecord, mergedWritten } from '@/lib/session-service/merged-entries';
import type { SessionRef } from '@/lib/session-service/store';
import type { StateRecord } from '@/lib/session-service/types';

export interface PreviewState {
  /** The merged state an agent would see (session keys, then app:, then user:). */
  state: StateRecord | null;
  /** `state`'s values as the store spells them where JSON.stringify would not (a float stored `2.0`). */
  written: SpelledJson | null;
  problem: string | null;
  /** The session does not exist (a 404): the page says so in its own words. */
  missing: boolean;
}

/** A session's merged state now (kept live), or right after event `asOf` — what a template renders against. */
export function usePreviewState(session: SessionRef | null, asOf: number | null): PreviewState {
  const ref = session ?? { appName: '', userId: '', sessionId: '' };
  const now = useQuery({ ...liveStateOptions(ref), enabled: session !== null && asOf === null, retry: retryTransient });
  const past = useQuery({ ...stateAsOfOptions(ref, asOf ?? 0), enabled: session !== null && asOf !== null, retry: retryTransient });
  const query = asOf === null ? now : past;
  if (!session) return { state: null, written: null, problem: null, missing: false };
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404 && asOf === null;
    return { state: null, written: null, problem: `Could not read the state: ${query.error.message}`, missing };
  }
  if (!query.data) return { state: null, written: null, problem: null, missing: false };
  return { state: mergedRecord(query.data), written: mergedWritten(query.data), problem: null, missing: false };
}
