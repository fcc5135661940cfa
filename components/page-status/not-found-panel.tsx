import type { ReactNode } from 'react';
import { panelClass } from '@/components/ui/panel';

/** A 404 page's body: what was not found, why that may be, and where to go instead. */
export function NotFoundPanel({ title, children, action }: { title: string; children: ReactNode; action: ReactNode }) {
  return (
    <div className={panelClass({ className: 'mx-auto max-w-xl px-6 py-10 text-center' })}>
      <p className="font-mono text-sm text-muted">404</p>
      <h1 className="mt-1 text-xl font-semibold">{title}</h1>
      <p className="mt-2 text-sm text-muted">{children}</p>
      <div className="mt-6">{action}</div>
    </div>
  );
}
