import type { Metadata } from 'next';
import Link from 'next/link';
import { NotFoundDetail } from '@/components/nav/not-found-detail';
import { NotFoundPanel } from '@/components/page-status/not-found-panel';
import { PANEL_ACTION_CLASS } from '@/components/page-status/panel-action';
import { APPS_PATH } from '@/lib/paths';

export const metadata: Metadata = { title: 'Not found' };

export default function NotFound() {
  return (
    <NotFoundPanel
      title="Page not found"
      action={
        <Link href={APPS_PATH} className={PANEL_ACTION_CLASS}>
          Back to all apps
        </Link>
      }
    >
      <NotFoundDetail />
    </NotFoundPanel>
  );
}
