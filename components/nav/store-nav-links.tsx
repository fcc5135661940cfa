'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { appsPath, AUDIT_PATH, PREVIEW_PATH, storeRoot } from '@/lib/paths';
import { useStoreId } from './use-store-id';

/** The header's links, into the store the page shows. */
export function StoreHomeLink({ className, children }: { className: string; children: ReactNode }) {
  return (
    <Link href={appsPath(useStoreId())} className={className}>
      {children}
    </Link>
  );
}

export function StoreNavLinks() {
  const store = useStoreId();
  return (
    <>
      <Link href={appsPath(store)} className="font-medium text-muted hover:text-foreground">
        Apps
      </Link>
      <Link href={`${storeRoot(store)}${PREVIEW_PATH}`} className="font-medium text-muted hover:text-foreground">
        <span className="hidden sm:inline">Template preview</span>
        <span className="sm:hidden">Preview</span>
      </Link>
      <Link href={`${storeRoot(store)}${AUDIT_PATH}`} className="font-medium text-muted hover:text-foreground">
        <span className="hidden sm:inline">Audit log</span>
        <span className="sm:hidden">Audit</span>
      </Link>
    </>
  );
}
