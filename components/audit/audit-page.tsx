import { EmptyState } from '@/components/lists/empty-state';
import { Pagination } from '@/components/lists/pagination';
import { formatCount } from '@/components/ui/format';
import { buttonClass } from '@/components/ui/button';
import { StoreAnchor } from '@/components/nav/store-link';
import { getAuditPage } from '@/lib/data/audit';
import { servedStore } from '@/lib/data/store-info';
import { auditParams, type AuditPageQuery } from '@/lib/data/audit-params';
import { DEFAULT_PAGE_SIZE } from '@/lib/data/list-params';
import { AUDIT_PATH, auditExportPath } from '@/lib/paths';
import { AuditFilters } from './audit-filters';
import { AuditTable } from './audit-table';

/** Every edit and operation, filtered as the URL says, a page at a time, with downloads of all of it. */
export async function AuditPage({ query }: { query: AuditPageQuery }) {
  const [page, store] = await Promise.all([getAuditPage(query), servedStore()]);
  const filters = auditParams(query.filters);
  return (
    <div className="space-y-4">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Audit log</h1>
        <p className="mt-1 max-w-3xl text-sm text-muted">
          Every support edit, append through the console, session operation (fork, import, titles, deletions), note and message sent to an
          agent, across apps, newest first: who, when, where, and what changed. Agents&apos; own writes are in each session&apos;s timeline.
        </p>
        {store ? (
          <p className="mt-1 text-sm" data-testid="audit-store">
            Store <span className="font-mono">{store.id}</span>: {store.label}
          </p>
        ) : null}
      </header>
      <AuditFilters filters={query.filters} />
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-muted">Download what the filters match:</span>
        <StoreAnchor href={auditExportPath('json', filters)} className={buttonClass({ size: 'xs' })} download>
          JSON
        </StoreAnchor>
        <StoreAnchor href={auditExportPath('csv', filters)} className={buttonClass({ size: 'xs' })} download>
          CSV
        </StoreAnchor>
      </p>
      <h2 className="text-lg font-semibold">
        Records <span className="text-sm font-normal text-muted">{formatCount(page.total)}</span>
      </h2>
      {page.items.length === 0 ? (
        <EmptyState title="Nothing in the log">
          {Object.keys(filters).length > 0 ? 'No edit or operation matches these filters.' : 'No edit or operation has been recorded yet.'}
        </EmptyState>
      ) : (
        <>
          <AuditTable records={page.items} />
          <Pagination
            pathname={AUDIT_PATH}
            query={{ ...filters, size: query.size === DEFAULT_PAGE_SIZE ? undefined : query.size }}
            page={query.page}
            size={query.size}
            total={page.total}
            noun="records"
          />
        </>
      )}
    </div>
  );
}
