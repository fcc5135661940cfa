import { parseCut } from '@/lib/data/value-cut';
import type { JsonValue } from '@/lib/session-service/types';

const DEFAULT_MAX = 120;

/** A JSON value on one line, cut at `max` characters (the whole value in the tooltip, up to a limit). */
export function JsonInline({
  value,
  max = DEFAULT_MAX,
  className = '',
}: {
  value: JsonValue | undefined;
  max?: number;
  className?: string;
}) {
  if (value === undefined) return <span className={`italic text-muted ${className}`}>absent</span>;
  // A value the server cut (lib/data/value-cut.ts): its beginning is all there is to show here.
  const sent = typeof value === 'string' ? parseCut(value) : null;
  const text = sent ? `${sent.json ? sent.preview : JSON.stringify(sent.preview).slice(0, -1)}…` : JSON.stringify(value);
  const cut = text.length > max;
  return (
    <code title={cut ? text.slice(0, 2000) : undefined} className={`break-all font-mono text-xs ${className}`}>
      {cut ? `${text.slice(0, max)}…` : text}
    </code>
  );
}

/** `old → new`, with "absent" for a key that was not there or was removed. */
export function ValueChange({ oldValue, newValue }: { oldValue: JsonValue | undefined; newValue: JsonValue | undefined }) {
  return (
    <span className="inline-flex min-w-0 flex-wrap items-baseline gap-x-1.5">
      <JsonInline value={oldValue} className={oldValue === undefined ? '' : 'text-muted line-through decoration-muted/60'} />
      <span aria-hidden="true" className="text-muted">
        →
      </span>
      <span className="sr-only">becomes</span>
      <JsonInline value={newValue} className="font-semibold" />
    </span>
  );
}
