'use client';

import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, useTransition } from 'react';
import { historyKeys } from '@/lib/queries/history';
import { watchOptions } from '@/lib/queries/live-lists';
import { Button } from '@/components/ui/button';

interface LiveRefreshProps {
  /** API reads whose answers change whenever the page's content does. */
  watch: string[];
  /** The app whose cached histories (read in the browser) are refreshed with the page. */
  appName?: string;
  /** When the server rendered the page (float seconds): a write after it, seen by the first poll, renders it again. */
  renderedAt: number;
}

/**
 * Keeps a server-rendered list page live: polls `watch` and, when an answer
 * changes (an agent wrote, a session was deleted), renders the page again in
 * place. Says that it is live, when it last caught a change, and when polling
 * fails.
 */
export function LiveRefresh({ watch, appName, renderedAt }: LiveRefreshProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const results = useQueries({ queries: watch.map(watchOptions) });
  const answered = results.every((result) => result.data !== undefined);
  const fingerprint = answered ? results.map((result) => result.data?.fingerprint).join('\n') : null;
  const latest = Math.max(0, ...results.map((result) => result.data?.latest ?? 0));
  const seen = useRef<string | null>(null);
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);
  const [refreshing, startRefresh] = useTransition();

  useEffect(() => {
    if (fingerprint === null) return;
    // The first answer is compared with the render by time: a write between the two is a change too.
    const changed = seen.current === null ? latest > renderedAt : seen.current !== fingerprint;
    if (changed) {
      startRefresh(() => {
        router.refresh();
        if (appName !== undefined) void queryClient.invalidateQueries({ queryKey: historyKeys.app(appName) });
      });
      setUpdatedAt(Date.now());
    }
    seen.current = fingerprint;
  }, [fingerprint, latest, renderedAt, router, queryClient, appName]);

  const failed = results.find((result) => result.isError && result.data === undefined) ?? results.find((result) => result.isError);
  if (failed?.error) {
    return (
      <p role="alert" className="flex items-center gap-2 text-xs text-danger">
        Live updates paused: {failed.error.message}
        <Button
          size="xs"
          onClick={() => results.forEach((result) => void result.refetch())}
          className="border-danger/40 bg-transparent text-current"
        >
          Retry
        </Button>
      </p>
    );
  }
  return (
    <p className="flex items-center gap-1.5 text-xs text-muted" title="New sessions and changes appear within a few seconds">
      <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-success" />
      Live
      <span role="status" className="ml-1">
        {refreshing ? 'Updating…' : updatedAt !== null ? `Updated at ${new Date(updatedAt).toLocaleTimeString('en')}` : ''}
      </span>
    </p>
  );
}
