import type { Metadata } from 'next';
import { StoreLink } from '@/components/nav/store-link';
import { NotFoundDetail } from '@/components/nav/not-found-detail';
import { NotFoundPanel } from '@/components/page-status/not-found-panel';
import { buttonClass } from '@/components/ui/button';
import { APPS_PATH } from '@/lib/paths';

export const metadata: Metadata = { title: 'Not found' };

export default function NotFound() {
  return (
    <NotFoundPanel
      title="Page not found"
      action={
        <StoreLink href={APPS_PATH} className={buttonClass({ variant: 'primary', size: 'md', className: 'inline-block' })}>
          Back to all apps
        </StoreLink>
      }
    >
      <NotFoundDetail />
    </NotFoundPanel>
  );
}
