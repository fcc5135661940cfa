'use client';

import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { HISTORY_PAGE_SIZE, userHistoryOptions } from '@/lib/queries/history';
import { ChangeList } from './change-list';
import { Pager } from './pager';
import { panelClass } from '@/components/ui/panel';
import { Segmented } from '@/components/ui/segmented';

type Range = 'today' | 'week' | 'all';

const RANGES: { value: Range; label: string }[] = [
  { value: 'all', label: 'All time' },
  { value: 'week', label: 'Last 7 days' },
  { value: 'today', label: 'Today' },
];

/** Float seconds where a range starts: local midnight for "today", as the person reading it means it. */
function sinceOf(range: Range, now: number): number | null {
  if (range === 'all') return null;
  const start = new Date(now);
  start.setHours(0, 0, 0, 0);
  if (range === 'week') start.setDate(start.getDate() - 6);
  return start.getTime() / 1000;
}

/**
 * What changed for this user: every change of the user's state (edits and
 * events), newest first. It opens on all time, so the latest change shows
 * however long ago it was; the shorter ranges narrow it down.
 */
export function UserHistory({ appName, userId }: { appName: string; userId: string }) {
  const [range, setRange] = useState<Range>('all');
  const [page, setPage] = useState(0);
  // Taken once: a moving "now" would make a new query key on every render.
  const [now] = useState(() => Date.now());
  const since = sinceOf(range, now);
  const history = useQuery(userHistoryOptions(appName, userId, since, page));
  const headingId = useId();

  return (
    <section aria-labelledby={headingId} className={panelClass({ className: 'p-3' })}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-sm font-semibold">
          Changes to this user’s state
        </h2>
        <Segmented
          label="Time range"
          kind="pressed"
          options={RANGES}
          value={range}
          onChange={(value) => {
            setRange(value);
            setPage(0);
          }}
        />
      </div>
      <p className="mt-0.5 text-xs text-muted">
        Support edits (who, when, why) and the events that wrote <code>user:</code> keys, newest first.
      </p>
      <div aria-busy={history.isFetching} className="mt-2">
        {history.isPending ? (
          <p className="text-xs text-muted">Loading…</p>
        ) : history.isError ? (
          <p role="alert" className="text-xs text-danger">
            Could not load the history: {history.error.message}
          </p>
        ) : history.data.total === 0 ? (
          <p className="text-xs text-muted">{range === 'all' ? 'No changes recorded for this user.' : 'No changes in this period.'}</p>
        ) : (
          <>
            <ChangeList appName={appName} changes={history.data.items} label="Changes to this user’s state" showKey />
            <Pager page={page} pageSize={HISTORY_PAGE_SIZE} total={history.data.total} onPage={setPage} noun="changes" />
          </>
        )}
      </div>
    </section>
  );
}
