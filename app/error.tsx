'use client';

import { StoreLink } from '@/components/nav/store-link';
import { usePathname } from 'next/navigation';
import { describeTarget, targetOf } from '@/components/nav/describe-path';
import { LoadError } from '@/components/page-status/load-error';
import { APPS_PATH } from '@/lib/paths';
import { buttonClass } from '@/components/ui/button';

export default function ErrorBoundary({ error, retry }: { error: unknown; retry: () => void }) {
  const pathname = usePathname();
  const target = targetOf(pathname);
  return (
    <LoadError
      error={error}
      retry={retry}
      title="This page could not be loaded"
      otherAction={
        <StoreLink href={APPS_PATH} className={buttonClass({ variant: 'secondary', size: 'md' })}>
          All apps
        </StoreLink>
      }
    >
      {target ? <>Reading the {describeTarget(target)} </> : <>Loading </>}(
      <code className="rounded bg-surface-muted px-1 py-0.5 text-xs">{pathname}</code>) failed on the server. The usual cause is the
      database: it is unreachable, locked by another process, or not migrated. Trying again reloads the data.
    </LoadError>
  );
}
