'use client';

import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useStoreId } from '@/components/nav/use-store-id';
import { getQueryClient } from '@/lib/queries/get-query-client';

export function Providers({ children }: { children: ReactNode }) {
  // Not useState: without a Suspense boundary above, React would discard a
  // client created during a render that suspends; getQueryClient keeps one per browser.
  const queryClient = getQueryClient(useStoreId());
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
