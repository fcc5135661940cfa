'use client';

import { useQuery } from '@tanstack/react-query';
import { hasFilters, NO_FILTERS, timelineCountOptions } from '@/lib/queries/session';
import { TimelineFilters } from './timeline-filters';
import { TimelineList, type TimelineListProps } from './timeline-list';
import { Button } from '@/components/ui/button';
import { Panel, panelClass } from '@/components/ui/panel';
import { TIMELINE_ID } from '@/components/nav/skip-link';

/** The list's props but its total, which the timeline counts. */
export type TimelineProps = Omit<TimelineListProps, 'total'>;

/** The event timeline: filters, the count, and the virtualised list of events. */
export function Timeline(props: TimelineProps) {
  const { sessionRef, filters, onFilters } = props;
  const count = useQuery(timelineCountOptions(sessionRef, filters));
  const filtered = hasFilters(filters);

  return (
    <section id={TIMELINE_ID} tabIndex={-1} aria-labelledby="timeline-heading" className="scroll-mt-24 space-y-3 outline-none">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="timeline-heading" className="text-lg font-semibold">
          Events
        </h2>
        <p className="text-sm text-muted">
          <span aria-live="polite">
            {count.data === undefined
              ? 'Counting…'
              : [count.data.toLocaleString('en'), filtered ? 'matching' : null, count.data === 1 ? 'event' : 'events']
                  .filter(Boolean)
                  .join(' ')}
          </span>
          <span className="ml-3 hidden text-xs lg:inline">
            <kbd className="rounded border border-border px-1">j</kbd>/<kbd className="rounded border border-border px-1">k</kbd> move ·{' '}
            <kbd className="rounded border border-border px-1">Enter</kbd> state after ·{' '}
            <kbd className="rounded border border-border px-1">Esc</kbd> now
          </span>
        </p>
      </div>
      <TimelineFilters filters={filters} onFilters={onFilters} />
      {count.error ? (
        <div role="alert" className="rounded-lg border border-danger/40 bg-danger-surface px-4 py-3 text-sm text-danger">
          The events could not be counted: {count.error.message}{' '}
          <Button variant="link" onClick={() => void count.refetch()} className="ml-1 text-current underline">
            Retry
          </Button>
        </div>
      ) : count.data === undefined ? (
        <Panel aria-hidden="true" className="h-[70vh] min-h-80 animate-pulse" />
      ) : count.data === 0 ? (
        <EmptyTimeline filtered={filtered} onClear={() => onFilters(NO_FILTERS)} />
      ) : (
        // A new list per filter: its rows, measurements and scroll position belong to one result set.
        <TimelineList key={JSON.stringify(filters)} {...props} total={count.data} />
      )}
    </section>
  );
}

function EmptyTimeline({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <div className={panelClass({ tone: 'dashed', className: 'px-6 py-10 text-center' })}>
      {filtered ? (
        <>
          <p className="font-medium">No events match these filters.</p>
          <Button type="button" onClick={onClear} variant="secondary" className="mt-3">
            Clear filters
          </Button>
        </>
      ) : (
        <>
          <p className="font-medium">No events yet.</p>
          <p className="mt-1 text-sm text-muted">Events appear here within a second or two of the agent appending them.</p>
        </>
      )}
    </div>
  );
}
