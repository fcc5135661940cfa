'use client';

import { useParams } from 'next/navigation';

/** The store the page's path names (`/stores/{id}/...`), for the links a client component builds; undefined at the root (the first store). */
export function useStoreId(): string | undefined {
  const { store } = useParams<{ store?: string }>();
  if (store === undefined) return undefined;
  try {
    return decodeURIComponent(store);
  } catch {
    return store;
  }
}
