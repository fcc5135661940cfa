'use client';

import { memo } from 'react';
import { RewindNote } from '@/components/session-ops/rewind-note';
import { Timestamp } from '@/components/state';
import type { TimelineItem } from '@/lib/data/session-views';
import type { NormalFilters } from '@/lib/queries/session';
import type { SessionRef } from '@/lib/session-service/store';
import { DiffList, rowsOfChanges } from './diff-list';
import { EventContent } from './event-content';
import { EventFlags } from './event-flags';
import { UnreadableNotes } from './unreadable-notes';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';

export interface EventRowProps {
  sessionRef: SessionRef;
  item: TimelineItem;
  selected: boolean;
  /** The event compared with the selected one. */
  compared: boolean;
  /** Another event is selected, so this one can be compared with it. */
  canCompare: boolean;
  onSelect: (seq: number | null) => void;
  onCompare: (seq: number) => void;
  onFilters: (filters: Partial<NormalFilters>) => void;
}

/** One event: who, when, which invocation, flags, content and the per-key diff of its state delta. */
export const EventRow = memo(function EventRow({
  sessionRef,
  item,
  selected,
  compared,
  canCompare,
  onSelect,
  onCompare,
  onFilters,
}: EventRowProps) {
  const { seq, event, changes } = item;
  const headingId = `event-${seq}-heading`;
  const artifacts = Object.entries(event.actions?.artifactDelta ?? {});
  return (
    <div className="space-y-2">
      <header className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
        <h3 id={headingId} className="font-mono text-sm font-semibold tabular-nums">
          <span className="sr-only">Event </span>#{seq}
        </h3>
        <Button
          variant="chip"
          onClick={() => onFilters({ author: event.author })}
          aria-label={`Show only events by ${event.author}`}
          title="Only events by this author"
          className={cx('font-semibold', event.author === 'user' ? 'text-scope-user' : 'text-foreground')}
        >
          {event.author}
        </Button>
        <Timestamp seconds={event.timestamp} className="text-muted" />
        {event.invocationId ? (
          <Button
            variant="chip"
            onClick={() => onFilters({ invocationId: event.invocationId })}
            aria-label={`Show only events of invocation ${event.invocationId}`}
            title="Only events of this invocation"
            className="max-w-[16rem] truncate font-mono text-[11px] text-muted"
          >
            {event.invocationId}
          </Button>
        ) : null}
        {event.branch ? <span className="font-mono text-[11px] text-muted">branch {event.branch}</span> : null}
        <EventFlags event={event} />
        <span className="ml-auto flex items-center gap-1">
          {canCompare && !selected ? (
            <Button
              size="xs"
              onClick={() => onCompare(seq)}
              aria-pressed={compared}
              // Each name holds the words on the button ("Compare", "Comparing").
              aria-label={`${compared ? 'Comparing: c' : 'C'}ompare the state after event ${seq} with the selected event`}
              className={cx(
                'rounded px-1.5',
                compared ? 'border-accent bg-accent/10 text-accent' : 'bg-transparent text-muted hover:text-foreground',
              )}
            >
              {compared ? 'Comparing' : 'Compare'}
            </Button>
          ) : null}
          <Button
            size="xs"
            onClick={() => onSelect(selected ? null : seq)}
            aria-pressed={selected}
            aria-label={selected ? `Viewing state: back to the state now (leave event ${seq})` : `Show the state after event ${seq}`}
            className={cx(
              'rounded px-1.5',
              selected
                ? 'border-accent bg-accent text-accent-foreground hover:bg-accent'
                : 'bg-transparent text-muted hover:border-accent hover:bg-transparent hover:text-accent',
            )}
          >
            {selected ? 'Viewing state' : 'State after'}
          </Button>
        </span>
      </header>
      <RewindNote session={sessionRef} seq={seq} event={event} onShowInvocation={(invocationId) => onFilters({ invocationId })} />
      <UnreadableNotes notes={event.unreadable} label={`Event ${seq}`} />
      {event.errorMessage ? <p className="text-xs text-danger">{event.errorMessage}</p> : null}
      <EventContent content={event.content} label={`Event ${seq}`} />
      {changes.length > 0 ? (
        <DiffList rows={rowsOfChanges(changes)} label={`State changes of event ${seq}`} onFilterKey={(key) => onFilters({ key })} />
      ) : null}
      {artifacts.length > 0 ? (
        <p className="text-xs text-muted">
          Artifacts:{' '}
          {artifacts.map(([name, version]) => (
            <code key={name} className="mr-2">
              {name} v{String(version)}
            </code>
          ))}
        </p>
      ) : null}
    </div>
  );
});
