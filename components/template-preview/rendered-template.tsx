import type { ReactNode } from 'react';
import type { RenderResult } from '@/lib/session-service/template';
import { describePlaceholder, STATUS_STYLE } from './status';

/**
 * The instruction as the agent would read it, each placeholder's insertion
 * marked in its outcome's colour. Placeholders that insert nothing show their
 * name in italics, so the gap stays visible (the exact text is beside it).
 */
export function RenderedTemplate({ template, result }: { template: string; result: RenderResult }) {
  const parts: ReactNode[] = [];
  let last = 0;
  result.placeholders.forEach((placeholder, index) => {
    if (placeholder.start > last) parts.push(template.slice(last, placeholder.start));
    const description = describePlaceholder(placeholder);
    const empty = placeholder.rendered === '' && placeholder.status !== 'verbatim';
    parts.push(
      <mark
        key={index}
        data-status={placeholder.status}
        title={description}
        aria-label={description}
        className={`rounded border px-0.5 ${STATUS_STYLE[placeholder.status]} ${empty ? 'text-[0.85em] italic' : ''}`}
      >
        {empty ? placeholder.raw : placeholder.rendered}
      </mark>,
    );
    last = placeholder.end;
  });
  if (last < template.length) parts.push(template.slice(last));
  return (
    <div
      data-testid="rendered-template"
      className="whitespace-pre-wrap break-words rounded-md border border-border bg-background px-3 py-2 font-mono text-sm leading-6"
    >
      {parts.length > 0 ? parts : <span className="text-muted">(empty)</span>}
    </div>
  );
}
