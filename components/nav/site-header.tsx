import Link from 'next/link';
import { AccountMenu } from '@/components/auth/account-menu';
import { APPS_PATH, AUDIT_PATH, PREVIEW_PATH } from '@/lib/paths';
import { GlobalSearch } from './global-search';
import { ThemeSwitch } from './theme-switch';

export function SiteHeader() {
  return (
    <header className="border-b border-border bg-surface">
      <div className="mx-auto flex min-h-14 max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 sm:px-6">
        <Link href={APPS_PATH} className="flex items-center gap-2 text-base font-semibold tracking-tight text-foreground hover:text-accent">
          <span aria-hidden="true" className="inline-block size-2.5 rounded-sm bg-accent" />
          Statehouse
        </Link>
        <span className="hidden text-sm text-muted lg:inline">Agent sessions and scoped state</span>
        <GlobalSearch />
        <nav aria-label="Main" className="ml-auto flex flex-wrap items-center justify-end gap-x-4 gap-y-2 text-sm">
          <Link href={APPS_PATH} className="font-medium text-muted hover:text-foreground">
            Apps
          </Link>
          <Link href={PREVIEW_PATH} className="font-medium text-muted hover:text-foreground">
            <span className="hidden sm:inline">Template preview</span>
            <span className="sm:hidden">Preview</span>
          </Link>
          <Link href={AUDIT_PATH} className="font-medium text-muted hover:text-foreground">
            <span className="hidden sm:inline">Audit log</span>
            <span className="sm:hidden">Audit</span>
          </Link>
          <ThemeSwitch />
          <AccountMenu />
        </nav>
      </div>
    </header>
  );
}
