import { unreadableTime } from '@/lib/data/unreadable';
import type { UnreadableNote } from '@/lib/session-service';

const absoluteTime = new Intl.DateTimeFormat('en', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'UTC',
});

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 hours ago", "in 2 days", "just now" for a time relative to now (both in ms). */
export function relativeTime(thenMs: number, nowMs: number): string {
  const diffSeconds = (thenMs - nowMs) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(diffSeconds) >= size) return relative.format(Math.round(diffSeconds / size), unit);
  }
  return 'just now';
}

export function absoluteUtc(seconds: number): string {
  return `${absoluteTime.format(new Date(seconds * 1000))} UTC`;
}

/**
 * A time as "3 hours ago", with the exact UTC time on hover and in the
 * machine-readable attribute. `now` is the render's clock (ms), passed
 * down so every row of a list is relative to the same instant.
 */
export function RelativeTime({ seconds, now, withAbsolute = false }: { seconds: number; now: number; withAbsolute?: boolean }) {
  const date = new Date(seconds * 1000);
  const absolute = absoluteUtc(seconds);
  return (
    <time dateTime={date.toISOString()} title={absolute} className="whitespace-nowrap">
      {relativeTime(date.getTime(), now)}
      {withAbsolute ? <span className="ml-2 hidden text-muted sm:inline">{absolute}</span> : null}
    </time>
  );
}

/**
 * A row's time that could not be read from the agent's database (an ADK
 * store lists it as 0 with a note): said so, with why on hover, never shown
 * as a date in 1970.
 */
export function UnreadableTime({ notes }: { notes: UnreadableNote[] }) {
  const why = notes.map((note) => `${note.column} holds ${note.raw}: ${note.reason}`).join('; ');
  return (
    <span title={why} className="whitespace-nowrap text-danger">
      unreadable
    </span>
  );
}

/** A listed time, or that it cannot be read when it reads 0 beside notes of the row (SessionSummary.unreadable). */
export function ListedTime({
  seconds,
  notes,
  now,
  withAbsolute = false,
}: {
  seconds: number;
  notes: UnreadableNote[] | undefined;
  now: number;
  withAbsolute?: boolean;
}) {
  if (notes && unreadableTime(seconds, notes)) return <UnreadableTime notes={notes} />;
  return <RelativeTime seconds={seconds} now={now} withAbsolute={withAbsolute} />;
}
