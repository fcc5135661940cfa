import { AccountMenu } from '@/components/auth/account-menu';
import type { StoreInfo } from '@/lib/session-service/store';
import { GlobalSearch } from './global-search';
import { StoreHomeLink, StoreNavLinks } from './store-nav-links';
import { StoreSwitcher } from './store-switcher';
import { ThemeSwitch } from './theme-switch';

/** `stores`: every served store, the first first (a switcher when there are several). */
export function SiteHeader({ stores }: { stores: StoreInfo[] }) {
  return (
    <header className="border-b border-border bg-surface">
      <div className="mx-auto flex min-h-14 max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 sm:px-6">
        <StoreHomeLink className="flex items-center gap-2 text-base font-semibold tracking-tight text-foreground hover:text-accent">
          <span aria-hidden="true" className="inline-block size-2.5 rounded-sm bg-accent" />
          Statehouse
        </StoreHomeLink>
        <span className="hidden text-sm text-muted lg:inline">Agent sessions and scoped state</span>
        <GlobalSearch />
        <nav aria-label="Main" className="ml-auto flex flex-wrap items-center justify-end gap-x-4 gap-y-2 text-sm">
          <StoreSwitcher stores={stores} />
          <StoreNavLinks />
          <ThemeSwitch />
          <AccountMenu />
        </nav>
      </div>
    </header>
  );
}
