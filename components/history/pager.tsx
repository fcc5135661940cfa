'use client';
import { Button } from '@/components/ui/button';

interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** Names what is paged, for the buttons' accessible names ("changes"). */
  noun: string;
}

/** Newer / older buttons for a newest-first list, with where the page sits. */
export function Pager({ page, pageSize, total, onPage, noun }: PagerProps) {
  if (total <= pageSize) return null;
  const first = page * pageSize + 1;
  const last = Math.min(total, (page + 1) * pageSize);
  return (
    <div className="flex items-center justify-between gap-2 pt-2 text-xs text-muted">
      <Button size="xs" disabled={page === 0} onClick={() => onPage(page - 1)} aria-label={`Newer ${noun}`}>
        ← Newer
      </Button>
      <span className="tabular-nums">
        {first.toLocaleString('en')}–{last.toLocaleString('en')} of {total.toLocaleString('en')}
      </span>
      <Button size="xs" disabled={last >= total} onClick={() => onPage(page + 1)} aria-label={`Older ${noun}`}>
        Older →
      </Button>
    </div>
  );
}
