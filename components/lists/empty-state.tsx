import type { ReactNode } from 'react';
import { panelClass } from '@/components/ui/panel';

/** What an empty list shows instead of a table: what is missing, and what to do about it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className={panelClass({ tone: 'dashed', className: 'px-6 py-10 text-center' })}>
      <h3 className="text-base font-semibold">{title}</h3>
      {children ? <div className="mx-auto mt-2 max-w-xl text-sm text-muted">{children}</div> : null}
    </div>
  );
}
