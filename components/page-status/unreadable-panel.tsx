import { panelClass } from '@/components/ui/panel';

/**
 * What a page shows in place of an agent's row Statehouse cannot read (422
 * UNREADABLE): which row and why, so the operator can fix it; the rest of
 * the page, and every other page, still reads.
 */
export function UnreadablePanel({ title, detail, headingLevel = 1 }: { title: string; detail: string; headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <div role="alert" className={panelClass({ tone: 'danger', className: 'px-6 py-6' })}>
      <p className="font-mono text-sm text-muted">422</p>
      <Heading className="mt-1 break-all text-lg font-semibold text-danger">{title}</Heading>
      <p className="mt-2 break-words text-sm">{detail}</p>
    </div>
  );
}
