'use client';

import { useQueries, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TimelineItem } from '@/lib/data/session-views';
import { pageOf, positionOptions, TIMELINE_PAGE_SIZE, timelinePageOptions, type NormalFilters } from '@/lib/queries/session';
import type { SessionRef } from '@/lib/session-service/store';
import { EventRow } from './event-row';
import { NewEventsMarker } from './new-events-marker';
import { useTimelineKeys } from './use-timeline-keys';
import { Button } from '@/components/ui/button';
import { panelClass } from '@/components/ui/panel';

/** A typical event row (header, a line or two of content, a small diff); rows are measured once rendered. */
const ESTIMATED_ROW_PX = 120;
/** Within this many pixels of the bottom counts as "at the newest event": new events are followed, not counted. */
const AT_END_PX = 48;

export interface TimelineListProps {
  sessionRef: SessionRef;
  filters: NormalFilters;
  /** Events passing the filters. */
  total: number;
  selected: number | null;
  compare: number | null;
  onSelect: (seq: number | null) => void;
  onCompare: (seq: number) => void;
  onFilters: (filters: Partial<NormalFilters>) => void;
}

/**
 * The events, oldest at the top and newest at the bottom, virtualised: only
 * the rows in view (and a few around them) are in the DOM, and their pages
 * are fetched as they scroll into view. Opens at the newest event, or at the
 * selected one; follows new events while scrolled to the bottom.
 */
export function TimelineList(props: TimelineListProps) {
  const { sessionRef, filters, total, selected, compare, onSelect, onCompare, onFilters } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  // Where the selected event sits, to scroll to it (deep links, provenance links, compare).
  const position = useQuery({ ...positionOptions(sessionRef, filters, selected ?? 0), enabled: selected !== null });
  const selectedIndex = selected === null ? null : (position.data?.index ?? null);

  // Start near where the list opens, so the first rows fetched are the ones shown (then scrolled there exactly).
  const [openAt] = useState(() => selectedIndex ?? total - 1);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    initialOffset: () => Math.max(0, (openAt - 2) * ESTIMATED_ROW_PX),
    overscan: 4,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: AT_END_PX,
  });
  const virtualItems = virtualizer.getVirtualItems();

  const pages = [...new Set(virtualItems.map((item) => pageOf(item.index)))];
  const pageResults = useQueries({ queries: pages.map((page) => timelinePageOptions(sessionRef, filters, page)) });
  const itemAt = (index: number): TimelineItem | undefined => {
    const result = pageResults[pages.indexOf(pageOf(index))];
    return result?.data?.items[index % TIMELINE_PAGE_SIZE];
  };
  const loading = pageResults.some((result) => result.isPending);

  const [opened, setOpened] = useState(false);
  useEffect(() => {
    if (opened || total === 0) return;
    if (selected !== null && position.isPending) return;
    if (selectedIndex !== null) virtualizer.scrollToIndex(selectedIndex, { align: 'center' });
    else virtualizer.scrollToIndex(total - 1, { align: 'end' });
    setOpened(true);
  }, [opened, total, selected, selectedIndex, position.isPending, virtualizer]);

  // A selection made elsewhere on the page scrolls its event into view.
  useEffect(() => {
    if (opened && selectedIndex !== null) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [opened, selectedIndex, virtualizer]);

  // "N new events" while the reader is scrolled away from the bottom.
  const atEnd = virtualizer.isAtEnd(AT_END_PX);
  const [seenTotal, setSeenTotal] = useState(total);
  useEffect(() => {
    if (atEnd && seenTotal !== total) setSeenTotal(total);
  }, [atEnd, seenTotal, total]);
  const unseen = atEnd ? 0 : Math.max(0, total - seenTotal);

  // Keyboard: the active (focused) row; j / k move it, Enter selects it.
  const [active, setActive] = useState<number | null>(null);
  const rows = useRef(new Map<number, HTMLElement>());
  // Set by j / k; the row takes focus once it is rendered (it may first have to scroll into the list).
  const focusPending = useRef(false);
  const focusRow = useCallback(
    (index: number) => {
      focusPending.current = true;
      setActive(index);
      virtualizer.scrollToIndex(index, { align: 'auto' });
    },
    [virtualizer],
  );
  useEffect(() => {
    const row = active === null ? undefined : rows.current.get(active);
    if (!focusPending.current || !row) return;
    focusPending.current = false;
    row.focus({ preventScroll: true });
    // The list has scrolled the row into its own view; this brings the list into the window's.
    row.scrollIntoView({ block: 'nearest' });
  });
  useTimelineKeys({
    move: (delta) => {
      if (total === 0) return;
      const from = active ?? selectedIndex ?? (delta === 1 ? (virtualItems[0]?.index ?? 0) - 1 : total);
      focusRow(Math.min(total - 1, Math.max(0, from + delta)));
    },
    choose: (index) => {
      const item = itemAt(index);
      if (item) onSelect(item.seq === selected ? null : item.seq);
    },
    leave: () => onSelect(null),
  });

  return (
    <div className="relative">
      <div
        ref={scrollRef}
        data-testid="timeline-scroller"
        className={panelClass({ className: 'h-[70vh] min-h-80 overflow-y-auto overscroll-contain' })}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
          <div
            role="feed"
            aria-label="Events"
            aria-busy={loading}
            className="absolute left-0 top-0 w-full"
            style={{ transform: `translateY(${virtualItems[0]?.start ?? 0}px)` }}
          >
            {virtualItems.map((virtual) => {
              const item = itemAt(virtual.index);
              const pageError = pageResults[pages.indexOf(pageOf(virtual.index))]?.error;
              return (
                <article
                  key={virtual.key}
                  data-index={virtual.index}
                  data-timeline-index={virtual.index}
                  ref={(node) => {
                    virtualizer.measureElement(node);
                    if (node) rows.current.set(virtual.index, node);
                    else rows.current.delete(virtual.index);
                  }}
                  tabIndex={virtual.index === (active ?? selectedIndex ?? total - 1) ? 0 : -1}
                  onFocus={() => setActive(virtual.index)}
                  aria-posinset={virtual.index + 1}
                  aria-setsize={total}
                  aria-labelledby={item ? `event-${item.seq}-heading` : undefined}
                  aria-label={item ? undefined : `Event ${virtual.index + 1} of ${total}, loading`}
                  aria-current={item && item.seq === selected ? 'true' : undefined}
                  className={`border-b border-border px-4 py-3 outline-offset-[-2px] ${
                    item && item.seq === selected
                      ? 'bg-accent/10 shadow-[inset_3px_0_0_var(--accent)]'
                      : item && item.seq === compare
                        ? 'bg-surface-muted shadow-[inset_3px_0_0_var(--border-strong)]'
                        : ''
                  }`}
                >
                  {item ? (
                    <EventRow
                      sessionRef={sessionRef}
                      item={item}
                      selected={item.seq === selected}
                      compared={item.seq === compare}
                      canCompare={selected !== null}
                      onSelect={onSelect}
                      onCompare={onCompare}
                      onFilters={onFilters}
                    />
                  ) : pageError ? (
                    <PageError
                      index={virtual.index}
                      message={pageError.message}
                      retry={() => void pageResults[pages.indexOf(pageOf(virtual.index))]?.refetch()}
                    />
                  ) : (
                    <RowSkeleton />
                  )}
                </article>
              );
            })}
          </div>
        </div>
      </div>
      <NewEventsMarker
        count={unseen}
        onClick={() => {
          virtualizer.scrollToIndex(total - 1, { align: 'end' });
          setSeenTotal(total);
        }}
      />
    </div>
  );
}

function RowSkeleton() {
  return (
    <div aria-hidden="true" className="animate-pulse space-y-2">
      <div className="h-4 w-1/3 rounded bg-surface-muted" />
      <div className="h-4 w-2/3 rounded bg-surface-muted" />
      <div className="h-10 w-full rounded bg-surface-muted" />
    </div>
  );
}

function PageError({ index, message, retry }: { index: number; message: string; retry: () => void }) {
  const first = pageOf(index) * TIMELINE_PAGE_SIZE + 1;
  return (
    <div role="alert" className="text-sm text-danger">
      Events {first.toLocaleString('en')}–{(first + TIMELINE_PAGE_SIZE - 1).toLocaleString('en')} could not be loaded: {message}{' '}
      <Button type="button" onClick={retry} variant="secondary" size="xs" className="ml-1">
        Retry
      </Button>
    </div>
  );
}
