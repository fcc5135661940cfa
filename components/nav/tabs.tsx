import { StoreLink } from './store-link';
import { formatCount } from '@/components/ui/format';

export interface Tab {
  label: string;
  href: string;
  current: boolean;
  count?: number;
}

/** Views of one page as links (each its own URL), the current one marked for assistive technology. */
export function Tabs({ label, tabs }: { label: string; tabs: Tab[] }) {
  return (
    <nav aria-label={label} className="mb-4 border-b border-border">
      <ul className="-mb-px flex gap-4 text-sm">
        {tabs.map((tab) => (
          <li key={tab.href}>
            <StoreLink
              href={tab.href}
              aria-current={tab.current ? 'page' : undefined}
              className="inline-flex items-center gap-2 border-b-2 border-transparent px-1 pb-2 font-medium text-muted hover:text-foreground aria-[current=page]:border-accent aria-[current=page]:text-foreground"
            >
              {tab.label}
              {tab.count !== undefined ? (
                <span className="rounded-full bg-surface-muted px-2 py-0.5 text-xs tabular-nums">{formatCount(tab.count)}</span>
              ) : null}
            </StoreLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
