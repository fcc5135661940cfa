'use client';

/** "3 new events ↓" over the bottom of the timeline while the reader is scrolled away from the newest event. */
export function NewEventsMarker({ count, onClick }: { count: number; onClick: () => void }) {
  return (
    <div aria-live="polite" className="pointer-events-none absolute inset-x-0 bottom-3 flex justify-center">
      {count > 0 ? (
        <button
          type="button"
          onClick={onClick}
          className="pointer-events-auto rounded-full bg-accent px-3 py-1 text-xs font-semibold text-accent-foreground shadow-md hover:bg-accent-hover"
        >
          {count.toLocaleString('en')} new {count === 1 ? 'event' : 'events'} ↓
        </button>
      ) : null}
    </div>
  );
}
