'use client';
import { Button } from '@/components/ui/button';

/** "3 new events ↓" over the bottom of the timeline while the reader is scrolled away from the newest event. */
export function NewEventsMarker({ count, onClick }: { count: number; onClick: () => void }) {
  return (
    <div aria-live="polite" className="pointer-events-none absolute inset-x-0 bottom-3 flex justify-center">
      {count > 0 ? (
        <Button type="button" onClick={onClick} variant="primary" size="xs" className="pointer-events-auto shadow-md">
          {count.toLocaleString('en')} new {count === 1 ? 'event' : 'events'} ↓
        </Button>
      ) : null}
    </div>
  );
}
