import type { Placeholder, PlaceholderStatus } from '@/lib/session-service/template';

/** How each placeholder outcome is named and coloured, in the output and in the table. */
export const STATUS_TEXT: Record<PlaceholderStatus, string> = {
  resolved: 'resolved',
  'optional-missing': 'optional, missing',
  missing: 'missing',
  verbatim: 'left as written',
  artifact: 'artifact',
  'artifact-missing': 'artifact missing',
};

export const STATUS_STYLE: Record<PlaceholderStatus, string> = {
  resolved: 'bg-success-surface text-success border-success/40',
  'optional-missing': 'bg-surface-muted text-muted border-border-strong border-dashed',
  missing: 'bg-danger-surface text-danger border-danger/50',
  verbatim: 'bg-warning-surface text-warning border-warning/50',
  artifact: 'bg-success-surface text-success border-success/40',
  'artifact-missing': 'bg-danger-surface text-danger border-danger/50',
};

/** One sentence on what happened to a placeholder, for tooltips and screen readers. */
export function describePlaceholder(placeholder: Placeholder): string {
  const name = placeholder.name ?? placeholder.raw;
  switch (placeholder.status) {
    case 'resolved':
      return `${name}: resolved from ${placeholder.scope ?? 'session'} state`;
    case 'optional-missing':
      return `${name}: optional and missing, inserts nothing`;
    case 'missing':
      return `${name}: missing. ADK raises ${placeholder.error ?? ''}`;
    case 'verbatim':
      return `${placeholder.raw}: not a valid state name, left exactly as written`;
    case 'artifact':
      return `${name}: artifact text`;
    case 'artifact-missing':
      return placeholder.error ? `${name}: ADK raises ${placeholder.error}` : `${name}: optional artifact, missing, inserts nothing`;
  }
}
