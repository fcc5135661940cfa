import Link from 'next/link';
import { AccountMenu } from '@/components/auth/account-menu';
import { APPS_PATH, PREVIEW_PATH } from '@/lib/paths';
import { ThemeSwitch } from './theme-switch';

export function SiteHeader() {
  return (
    <header className="border-b border-border bg-surface">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-6">
        <Link
          href={APPS_PATH}
          className="flex items-center gap-2 text-base font-semibold tracking-tight text-foreground hover:text-accent"
        >
          <span aria-hidden="true" className="inline-block size-2.5 rounded-sm bg-accent" />
          Statehouse
        </Link>
        <span className="hidden text-sm text-muted md:inline">Agent sessions and scoped state</span>
        <nav aria-label="Main" className="ml-auto flex items-center gap-4 text-sm">
          <Link href={APPS_PATH} className="font-medium text-muted hover:text-foreground">
            Apps
          </Link>
          <Link href={PREVIEW_PATH} className="font-medium text-muted hover:text-foreground">
            Template preview
          </Link>
          <ThemeSwitch />
          <AccountMenu />
        </nav>
      </div>
    </header>
  );
}
