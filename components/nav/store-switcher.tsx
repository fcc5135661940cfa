'use client';

import { useRouter } from 'next/navigation';
import { appsPath } from '@/lib/paths';
import type { StoreInfo } from '@/lib/session-service/store';
import { useStoreId } from './use-store-id';

/** Which of several served stores the console shows: choosing one opens its apps. Nothing with one store. */
export function StoreSwitcher({ stores }: { stores: StoreInfo[] }) {
  const router = useRouter();
  const named = useStoreId();
  if (stores.length < 2) return null;
  const current = named ?? stores[0]?.id ?? '';
  return (
    <label className="flex items-center gap-2 text-sm text-muted">
      <span>Store</span>
      <select
        value={current}
        onChange={(event) => router.push(appsPath(event.target.value))}
        className="rounded-md border border-border bg-surface px-2 py-1 text-sm text-foreground"
        data-testid="store-switcher"
      >
        {stores.map((store) => (
          <option key={store.id} value={store.id}>
            {store.id} ({store.label})
          </option>
        ))}
      </select>
    </label>
  );
}
