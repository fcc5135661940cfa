'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { ComponentProps } from 'react';
import { inStore } from '@/lib/paths';
import { useStoreId } from './use-store-id';

/**
 * A link to a console page built without a store (lib/paths.ts), into the
 * store the page shows: on `/stores/dev/...` a link to `/apps/x` goes to
 * `/stores/dev/apps/x`. Server components render it with store-less paths.
 */
export function StoreLink({ href, ...props }: ComponentProps<typeof Link> & { href: string }) {
  return <Link href={inStore(href, useStoreId())} {...props} />;
}

/** A plain anchor (a download) into the page's store. */
export function StoreAnchor({ href, ...props }: ComponentProps<'a'> & { href: string }) {
  return <a href={inStore(href, useStoreId())} {...props} />;
}

/** Places a store-less path (for router.push) in the page's store. */
export function useStoreHref(): (path: string) => string {
  const store = useStoreId();
  return (path) => inStore(path, store);
}

/** Next's router, its push and replace placing store-less paths in the page's store. */
export function useStoreRouter(): ReturnType<typeof useRouter> {
  const router = useRouter();
  const place = useStoreHref();
  return {
    ...router,
    push: (href, options) => router.push(place(href), options),
    replace: (href, options) => router.replace(place(href), options),
  };
}
