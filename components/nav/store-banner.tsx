'use client';

import type { StoreInfo } from '@/lib/session-service/store';
import { useStoreId } from './use-store-id';

/**
 * Says whose database the page shows when it is an agent's (opened with
 * STATEHOUSE_STORE or `npm run open`), and why it takes no writes when it is
 * read-only; with several stores, which one. Statehouse's own store alone
 * needs no banner. A client component: the root layout holds it, and the
 * store changes with the path without the layout rendering again.
 */
export function StoreBanner({ stores }: { stores: StoreInfo[] }) {
  const named = useStoreId();
  const info = named === undefined ? stores[0] : stores.find((store) => store.id === named);
  if (!info || (info.family === 'native' && stores.length < 2)) return null;
  const readOnly = info.readOnlyReason !== undefined;
  return (
    // A named section is a region landmark, so the banner is inside one (axe's `region` rule).
    <section aria-label="Served store" className={`border-b border-border text-sm ${readOnly ? 'bg-warning-surface' : 'bg-surface-muted'}`}>
      <div role={readOnly ? 'status' : undefined} className="mx-auto flex max-w-6xl flex-wrap items-baseline gap-x-2 px-6 py-2">
        {stores.length > 1 ? <span className="font-semibold text-foreground">Store {info.id}:</span> : null}
        <span className="font-medium text-foreground">{info.label}</span>
        <span className="text-muted">{info.description}</span>
        <code className="break-all text-muted">{info.location}</code>
        {readOnly && (
          <span className="font-medium text-warning" data-testid="read-only-reason">
            Read-only: {info.readOnlyReason}
          </span>
        )}
      </div>
    </section>
  );
}
