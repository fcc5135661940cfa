import { StoreLink } from '@/components/nav/store-link';
import { Timestamp } from '@/components/state';
import { formatCount, plural } from '@/components/ui/format';
import { panelClass } from '@/components/ui/panel';
import type { EventGistView, EventsComparison as EventsView } from '@/lib/data/compare';
import { sessionPath, type CompareSide } from '@/lib/paths';

interface EventsComparisonProps {
  events: EventsView;
  left: CompareSide;
  right: CompareSide;
  leftLabel: string;
  rightLabel: string;
}

/** Where the two logs part: how many events they share, then each side's own events after that, side by side. */
export function EventsComparison({ events, left, right, leftLabel, rightLabel }: EventsComparisonProps) {
  return (
    <section aria-labelledby="compare-events" className={panelClass({ className: 'space-y-3 p-4' })}>
      <h2 id="compare-events" className="text-lg font-semibold">
        Events
      </h2>
      <p className="text-sm" data-testid="shared-events">
        {events.shared === 0
          ? 'The two sessions share no events: their logs differ from the first event.'
          : `Both start with the same ${plural(events.shared, 'event')}${events.complete ? '' : ' at least (compared that far)'}; then they part.`}
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <EventColumn label={leftLabel} side={left} items={events.left} after={events.leftAfter} headingId="compare-events-first" />
        <EventColumn label={rightLabel} side={right} items={events.right} after={events.rightAfter} headingId="compare-events-second" />
      </div>
    </section>
  );
}

function EventColumn({
  label,
  side,
  items,
  after,
  headingId,
}: {
  label: string;
  side: CompareSide;
  items: EventGistView[];
  after: number;
  headingId: string;
}) {
  const href = (seq: number) => `${sessionPath(side.appName, side.userId, side.sessionId ?? '')}?event=${seq}`;
  return (
    <div className="min-w-0">
      <h3 id={headingId} className="mb-1 text-sm font-semibold break-all">
        {label}: {after === 0 ? 'nothing after that' : `${plural(after, 'event')} after that`}
      </h3>
      {items.length > 0 ? (
        <ol aria-labelledby={headingId} className="divide-y divide-border rounded-md border border-border text-sm">
          {items.map((item) => (
            <li key={item.seq} className="px-2 py-1.5">
              <div className="flex flex-wrap items-baseline gap-x-2 text-xs text-muted">
                <StoreLink href={href(item.seq)} className="font-mono text-accent hover:underline">
                  #{formatCount(item.seq)}
                </StoreLink>
                <span className="font-medium text-foreground">{item.author || '(no author)'}</span>
                <Timestamp seconds={item.timestamp} />
                {item.error ? <span className="rounded bg-danger-surface px-1 font-semibold uppercase text-danger">error</span> : null}
              </div>
              <p className="mt-0.5 break-words">{item.gist || <span className="italic text-muted">(no content)</span>}</p>
            </li>
          ))}
        </ol>
      ) : null}
      {after > items.length ? (
        <p className="mt-1 text-xs text-muted">and {plural(after - items.length, 'more event')} in the session&apos;s timeline.</p>
      ) : null}
    </div>
  );
}
