import { StoreLink } from '@/components/nav/store-link';
import type { ReactNode } from 'react';
import { listHref, type ListQuery } from './href';
import { panelClass } from '@/components/ui/panel';

/** A list table: the caption names the list for screen readers (and can be shown). */
export function ListTable({ caption, children, busy = false }: { caption: string; children: ReactNode; busy?: boolean }) {
  return (
    <div className={panelClass({ className: 'overflow-x-auto' })}>
      <table className="w-full text-left text-sm" aria-busy={busy || undefined}>
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function ListHead({ children }: { children: ReactNode }) {
  return (
    <thead className="border-b border-border bg-surface-muted text-xs uppercase tracking-wide text-muted">
      <tr>{children}</tr>
    </thead>
  );
}

const headClass = 'px-3 py-2.5 font-medium sm:px-4';

export function Header({ children, numeric = false }: { children: ReactNode; numeric?: boolean }) {
  return (
    <th scope="col" className={`${headClass} ${numeric ? 'text-right' : ''}`}>
      {children}
    </th>
  );
}

interface SortHeaderProps {
  label: string;
  /** The `sort` value this column sorts by, and which way that order runs. */
  sort: string;
  direction: 'ascending' | 'descending';
  /** The list's current sort. */
  current: string;
  /** The default sort is left out of URLs. */
  defaultSort: string;
  pathname: string;
  query: ListQuery;
  numeric?: boolean;
  /** Another `sort` value of this column (e.g. oldest first), offered when this one is active. */
  toggle?: { sort: string; direction: 'ascending' | 'descending' };
}

/**
 * A column header that sorts the list by linking to the same page with
 * `sort` set (and back to page 1). The active column carries aria-sort.
 */
export function SortHeader({ label, sort, direction, current, defaultSort, pathname, query, numeric = false, toggle }: SortHeaderProps) {
  const active = current === sort || current === toggle?.sort;
  const activeDirection = current === toggle?.sort ? toggle.direction : direction;
  const next = current === sort && toggle ? toggle.sort : sort;
  const nextDirection = next === toggle?.sort ? toggle.direction : direction;
  const href = listHref(pathname, query, { sort: next === defaultSort ? undefined : next, page: undefined });
  return (
    <th scope="col" aria-sort={active ? activeDirection : undefined} className={`${headClass} ${numeric ? 'text-right' : ''}`}>
      <StoreLink
        href={href}
        className={`inline-flex items-center gap-1 uppercase hover:text-foreground ${active ? 'text-foreground' : ''}`}
        title={`Sort by ${label.toLowerCase()}, ${nextDirection}`}
      >
        {label}
        <span aria-hidden="true" className={active ? '' : 'opacity-0'}>
          {activeDirection === 'descending' ? '↓' : '↑'}
        </span>
      </StoreLink>
    </th>
  );
}

export function Row({ children }: { children: ReactNode }) {
  return <tr className="hover:bg-surface-muted/60">{children}</tr>;
}

export function Cell({ children, numeric = false, className = '' }: { children: ReactNode; numeric?: boolean; className?: string }) {
  return <td className={`px-3 py-3 sm:px-4 ${numeric ? 'text-right tabular-nums' : ''} ${className}`}>{children}</td>;
}

/** The main link of a row: an id in monospace. */
export function IdLink({ href, children, label }: { href: string; children: ReactNode; label?: string }) {
  return (
    <StoreLink
      href={href}
      prefetch={false}
      aria-label={label}
      // At least 8rem wide, so a narrow screen scrolls the table rather than cutting ids into fragments.
      className="inline-block min-w-32 font-mono font-medium break-words text-accent hover:text-accent-hover hover:underline"
    >
      {children}
    </StoreLink>
  );
}
