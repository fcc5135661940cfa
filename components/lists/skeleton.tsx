import { panelClass } from '@/components/ui/panel';
/** A list's placeholder while it loads: the table's shape, announced as loading. */
export function TableSkeleton({ label, rows = 8, columns = 4 }: { label: string; rows?: number; columns?: number }) {
  return (
    <div role="status" aria-label={label} className={panelClass({ className: 'overflow-hidden' })}>
      <div className="h-9 border-b border-border bg-surface-muted" />
      <div className="divide-y divide-border">
        {Array.from({ length: rows }, (_, row) => (
          <div key={row} className="flex gap-6 px-4 py-3.5">
            {Array.from({ length: columns }, (_, column) => (
              <div key={column} className={`h-3.5 animate-pulse rounded bg-surface-muted ${column === 0 ? 'w-2/5' : 'w-1/6'}`} />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
