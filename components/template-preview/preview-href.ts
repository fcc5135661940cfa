import type { SessionRef } from '@/lib/session-service/store';
import type { TemplateDialect } from '@/lib/session-service/template';

export const PREVIEW_PATH = '/preview';

export interface PreviewLink {
  session?: SessionRef | null;
  /** Render as of this event (sequence number); null for the current state. */
  asOf?: number | null;
  template?: string;
  dialect?: TemplateDialect;
}

/** `/preview?app=…&user=…&session=…&event=…&template=…&dialect=…`, leaving out what is not set. */
export function previewHref({ session, asOf, template, dialect }: PreviewLink): string {
  const params = new URLSearchParams();
  if (session) {
    params.set('app', session.appName);
    params.set('user', session.userId);
    params.set('session', session.sessionId);
    if (asOf !== null && asOf !== undefined) params.set('event', String(asOf));
  }
  if (template) params.set('template', template);
  if (dialect && dialect !== 'python') params.set('dialect', dialect);
  const search = params.toString();
  return search ? `${PREVIEW_PATH}?${search}` : PREVIEW_PATH;
}
