import { servedStore } from '@/lib/data/store-info';

/**
 * Says whose database the console shows when it is an agent's (opened with
 * STATEHOUSE_STORE or `npm run open`), and why it takes no writes when it is
 * read-only. Statehouse's own store needs no banner.
 */
export async function StoreBanner() {
  const info = await servedStore();
  if (!info || info.family === 'native') return null;
  const readOnly = info.readOnlyReason !== undefined;
  return (
    // A named section is a region landmark, so the banner is inside one (axe's `region` rule).
    <section aria-label="Served store" className={`border-b border-border text-sm ${readOnly ? 'bg-warning-surface' : 'bg-surface-muted'}`}>
      <div role={readOnly ? 'status' : undefined} className="mx-auto flex max-w-6xl flex-wrap items-baseline gap-x-2 px-6 py-2">
        <span className="font-medium text-foreground">{info.label}</span>
        <span className="text-muted">{info.description}</span>
        <code className="break-all text-muted">{info.location}</code>
        {readOnly && (
          <span className="font-medium text-warning" data-testid="read-only-reason">
            Read-only: {info.readOnlyReason}
          </span>
        )}
      </div>
    </section>
  );
}
