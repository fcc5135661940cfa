const dateTime = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  fractionalSecondDigits: 3,
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** `22 Nov 2026, 12:03:04.120 UTC`: one fixed zone, so server and browser render the same text. */
export function formatSeconds(seconds: number): string {
  return `${dateTime.format(new Date(seconds * 1000))} UTC`;
}

/** A float-seconds time as a <time> element. */
export function Timestamp({ seconds, className = '' }: { seconds: number; className?: string }) {
  const date = new Date(seconds * 1000);
  const valid = Number.isFinite(date.getTime());
  return (
    <time dateTime={valid ? date.toISOString() : undefined} className={`whitespace-nowrap tabular-nums ${className}`}>
      {valid ? formatSeconds(seconds) : String(seconds)}
    </time>
  );
}
