import { StoreLink } from '@/components/nav/store-link';
import { formatCount } from '../ui/format';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@/lib/data/list-params';
import { listHref, type ListQuery } from './href';
import { buttonClass } from '@/components/ui/button';

interface PaginationProps {
  pathname: string;
  /** The list's current query, without page (and size when it is the default). */
  query: ListQuery;
  page: number;
  size: number;
  total: number;
  /**
   * The list was counted only so far (a search with many matches): there
   * are at least `total`. Shown as "10,000+"; the last page is not known.
   */
  totalIsLowerBound?: boolean;
  /** Plural noun for the summary: "sessions". */
  noun: string;
}

const linkClass = buttonClass({ variant: 'secondary' });

/**
 * "Showing 51–100 of 100,000 sessions", first/previous/next/last links and
 * the page size, all plain links. With a lower-bound total: "of 10,000+",
 * "Page 1 of 400+", no last page; the next pages count further.
 */
export function Pagination({ pathname, query, page, size, total, totalIsLowerBound = false, noun }: PaginationProps) {
  const pages = Math.max(1, Math.ceil(total / size));
  const from = (page - 1) * size + 1;
  const to = Math.min(total, page * size);
  const more = totalIsLowerBound ? '+' : '';
  const hrefFor = (target: number) => listHref(pathname, query, { page: target === 1 ? undefined : target });
  const step = (label: string, target: number, enabled: boolean, rel?: string, disabledTitle?: string) =>
    enabled ? (
      <StoreLink href={hrefFor(target)} rel={rel} className={linkClass}>
        {label}
      </StoreLink>
    ) : (
      <a aria-disabled="true" role="link" title={disabledTitle} className={linkClass}>
        {label}
      </a>
    );

  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-muted">
        {total === 0 ? (
          <>No {noun}</>
        ) : from > total ? (
          <>
            Page {formatCount(page)} is past the end: {formatCount(total)} {noun} in all
          </>
        ) : (
          <>
            Showing <span className="tabular-nums text-foreground">{formatCount(from)}</span>–
            <span className="tabular-nums text-foreground">{formatCount(to)}</span> of{' '}
            <span className="tabular-nums text-foreground">
              {formatCount(total)}
              {more}
            </span>{' '}
            {noun}
          </>
        )}
      </p>
      {pages > 1 || page > 1 ? (
        <nav aria-label={`Pages of ${noun}`} className="flex items-center gap-1.5">
          {step('First', 1, page > 1)}
          {step('Previous', Math.min(page - 1, pages), page > 1, 'prev')}
          <span className="px-2 tabular-nums text-muted">
            Page {formatCount(page)} of {formatCount(pages)}
            {more}
          </span>
          {step('Next', page + 1, page < pages, 'next')}
          {step(
            'Last',
            pages,
            page !== pages && !totalIsLowerBound,
            undefined,
            totalIsLowerBound ? `Not counted past ${formatCount(total)} ${noun}` : undefined,
          )}
        </nav>
      ) : null}
      <nav aria-label={`${noun} per page`} className="flex items-center gap-1 text-muted">
        <span aria-hidden="true">Per page</span>
        {PAGE_SIZES.map((option) => (
          <StoreLink
            key={option}
            href={listHref(pathname, query, { size: option === DEFAULT_PAGE_SIZE ? undefined : option, page: undefined })}
            aria-current={option === size ? 'true' : undefined}
            aria-label={`${option} per page`}
            className="rounded px-1.5 py-0.5 tabular-nums hover:text-foreground aria-[current]:bg-surface-muted aria-[current]:font-medium aria-[current]:text-foreground"
          >
            {option}
          </StoreLink>
        ))}
      </nav>
    </div>
  );
}
