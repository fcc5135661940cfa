'use client';

import { StoreLink } from '@/components/nav/store-link';
import { useSearchParams } from 'next/navigation';
import { useId } from 'react';
import { parseSessionUrl } from '@/lib/queries/session-url';
import type { SessionRef } from '@/lib/session-service/store';
import { previewHref } from '@/lib/paths';
import { TemplateWorkbench } from './template-workbench';
import { usePreviewState } from './use-preview-state';
import { useTemplateUrl } from './use-template-url';
import { panelClass } from '@/components/ui/panel';

/**
 * The template preview on the session page: renders against the state the
 * page shows — now, or right after the event selected in the timeline — and
 * keeps the template in the page's URL.
 */
export function SessionTemplatePreview({ session }: { session: SessionRef }) {
  const params = useSearchParams();
  const asOf = parseSessionUrl((name) => params.get(name)).event;
  const url = useTemplateUrl();
  const against = usePreviewState(session, asOf);
  const headingId = useId();

  const source = (
    <p className="text-muted">
      Rendering against{' '}
      {asOf === null ? (
        <span className="font-medium text-foreground">the current state</span>
      ) : (
        <span className="font-medium text-foreground">the state right after event #{asOf}</span>
      )}{' '}
      {asOf === null ? '(select an event in the timeline to go back in time)' : '(selected in the timeline)'} ·{' '}
      <StoreLink
        href={previewHref({ session, asOf, template: url.template, dialect: url.dialect })}
        className="text-accent underline underline-offset-2"
      >
        Open in the preview page
      </StoreLink>
    </p>
  );

  return (
    <section aria-labelledby={headingId} className={panelClass({ className: 'p-4' })}>
      <h2 id={headingId} className="mb-3 text-base font-semibold">
        Template preview
      </h2>
      <TemplateWorkbench url={url} against={against} source={source} />
    </section>
  );
}
