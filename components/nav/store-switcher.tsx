'use client';

import { useRouter } from 'next/navigation';
import { appsPath } from '@/lib/paths';
import type { StoreInfo } from '@/lib/session-service/store';
import { useStoreId } from './use-store-id';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/input';

/** Which of several served stores the console shows: choosing one opens its apps. Nothing with one store. */
export function StoreSwitcher({ stores }: { stores: StoreInfo[] }) {
  const router = useRouter();
  const named = useStoreId();
  if (stores.length < 2) return null;
  const current = named ?? stores[0]?.id ?? '';
  return (
    <Label className="flex items-center gap-2 text-sm font-normal">
      <span>Store</span>
      <Select
        value={current}
        onChange={(event) => router.push(appsPath(event.target.value))}
        className="bg-surface"
        data-testid="store-switcher"
      >
        {stores.map((store) => (
          <option key={store.id} value={store.id}>
            {store.id} ({store.label})
          </option>
        ))}
      </Select>
    </Label>
  );
}
