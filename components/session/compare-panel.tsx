'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { stateAsOfOptions } from '@/lib/queries/session';
import { mergedRecord } from '@/lib/session-service/merged-entries';
import type { SessionRef } from '@/lib/session-service/store';
import { diffState } from '@/lib/session-service/state-diff';
import { DiffList, rowOfKey } from './diff-list';
import { panelClass } from '@/components/ui/panel';

interface ComparePanelProps {
  sessionRef: SessionRef;
  /** The two events, in any order; the diff reads from the earlier to the later. */
  first: number;
  second: number;
}

/** The merged state's differences between right after one event and right after another. */
export function ComparePanel({ sessionRef, first, second }: ComparePanelProps) {
  const [from, to] = first < second ? [first, second] : [second, first];
  const before = useQuery(stateAsOfOptions(sessionRef, from));
  const after = useQuery(stateAsOfOptions(sessionRef, to));
  const error = before.error ?? after.error;
  const section = useRef<HTMLElement>(null);

  // Chosen in the timeline, below: brought into view, its heading clear of the sticky time-travel banner (scroll-mt).
  useEffect(() => {
    section.current?.scrollIntoView({ block: 'start' });
  }, [from, to]);

  let body;
  if (error) {
    body = (
      <p role="alert" className="text-sm text-danger">
        The comparison could not be loaded: {error.message}
      </p>
    );
  } else if (!before.data || !after.data) {
    body = <div aria-hidden="true" className="h-20 animate-pulse rounded-md bg-surface-muted" />;
  } else {
    const diffs = diffState(mergedRecord(before.data), mergedRecord(after.data));
    body =
      diffs.length === 0 ? (
        <p className="text-sm text-muted">The agent saw the same state after both events.</p>
      ) : (
        <DiffList
          rows={diffs.map((diff) => rowOfKey(diff.key, diff.kind, diff.before, diff.after))}
          label={`State changes from event ${from} to event ${to}`}
        />
      );
  }

  return (
    <section
      ref={section}
      aria-labelledby="compare-heading"
      className={panelClass({ className: 'scroll-mt-40 space-y-2 p-4 sm:scroll-mt-24' })}
    >
      <h2 id="compare-heading" className="text-lg font-semibold">
        From event #{from} to event #{to}
      </h2>
      <p className="text-xs text-muted">What the agent sees, right after each event: keys added, changed and removed in between.</p>
      {body}
    </section>
  );
}
