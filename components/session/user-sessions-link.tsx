'use client';

import { StoreLink } from '@/components/nav/store-link';
import type { ReactNode } from 'react';
import { usePathname } from 'next/navigation';
import { APPS_PATH } from '@/lib/paths';

/** A link from any address under a session (`…/users/<user>/sessions/<id>…`) to that user's page. */
export function UserSessionsLink({ className, children }: { className?: string; children: ReactNode }) {
  const pathname = usePathname();
  const cut = pathname.lastIndexOf('/sessions/');
  return (
    <StoreLink href={cut > 0 ? pathname.slice(0, cut) : APPS_PATH} className={className}>
      {children}
    </StoreLink>
  );
}
