'use client';

import { useState, type FormEvent } from 'react';
import { Timestamp } from '@/components/state';
import type { TimelineItem } from '@/lib/data/session-views';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

interface TimeTravelBannerProps {
  seq: number;
  /** The selected event, once loaded. */
  item: TimelineItem | undefined;
  /** Why the event could not be loaded (e.g. there is no such event). */
  error: Error | null;
  compare: number | null;
  eventCount: number | undefined;
  onBack: () => void;
  onCompare: (seq: number | null) => void;
}

/** Says plainly that the state shown is the past, and offers the way back to now and a comparison. */
export function TimeTravelBanner({ seq, item, error, compare, eventCount, onBack, onCompare }: TimeTravelBannerProps) {
  return (
    <div
      role="region"
      aria-label="Time travel"
      // On a phone it must stay a bar, not a panel: the text and "Back to now" share the first row (the text's basis is 0, so
      // the button never wraps under it), the comparison form takes the second, and the details show from sm up.
      className="sticky top-0 z-20 flex flex-wrap items-center gap-x-4 gap-y-1.5 rounded-lg border border-warning/50 bg-warning-surface px-3 py-2 text-sm shadow-sm sm:gap-y-2 sm:px-4 sm:py-2.5"
    >
      <p className="min-w-0 grow basis-0">
        <span className="font-semibold text-warning">Time travel:</span>{' '}
        {error ? (
          <span className="text-danger">
            event #{seq} could not be loaded ({error.message}).
          </span>
        ) : (
          <>
            state right after <strong>event #{seq}</strong>
            {eventCount !== undefined ? <span className="text-muted"> of {eventCount.toLocaleString('en')}</span> : null}
            {item ? (
              <span className="hidden sm:inline">
                {' '}
                by <strong>{item.event.author}</strong> at <Timestamp seconds={item.event.timestamp} />
              </span>
            ) : null}
            .
            <span className="hidden text-xs text-muted sm:block">
              Session keys are replayed up to this event; app and user keys are as they stood at its time.
            </span>
          </>
        )}
      </p>
      <Button type="button" onClick={onBack} variant="primary" className="shrink-0 sm:order-last">
        Back to now
      </Button>
      <CompareForm key={compare ?? 'none'} seq={seq} compare={compare} onCompare={onCompare} />
    </div>
  );
}

function CompareForm({ seq, compare, onCompare }: { seq: number; compare: number | null; onCompare: (seq: number | null) => void }) {
  const [text, setText] = useState(compare === null ? '' : String(compare));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const other = Number(text);
    onCompare(Number.isInteger(other) && other >= 1 && other !== seq ? other : null);
  };
  return (
    <form onSubmit={submit} className="flex w-full items-center gap-1.5 sm:w-auto">
      <Label htmlFor="compare-with" className="inline">
        Compare with event #
      </Label>
      <Input
        id="compare-with"
        type="number"
        min={1}
        inputMode="numeric"
        value={text}
        onChange={(event) => setText(event.target.value)}
        className="w-24 bg-surface py-0.5 tabular-nums"
      />
      <Button type="submit" variant="secondary" size="xs">
        Compare
      </Button>
      {compare !== null ? (
        <Button variant="ghost" size="xs" onClick={() => onCompare(null)}>
          Stop comparing
        </Button>
      ) : null}
    </form>
  );
}
