import { isReadOnly } from '@/lib/config';

/** Says, on every page, that this console takes no writes (STATEHOUSE_READ_ONLY), so no control is missed for a bug. */
export function ReadOnlyBanner() {
  if (!isReadOnly()) return null;
  return (
    <div role="status" aria-label="Read-only mode" className="border-b border-border bg-warning-surface text-sm">
      <div className="mx-auto max-w-6xl px-6 py-2">
        <span className="font-medium text-warning">Read-only mode:</span> this console shows everything and changes nothing
        (STATEHOUSE_READ_ONLY).
      </div>
    </div>
  );
}
