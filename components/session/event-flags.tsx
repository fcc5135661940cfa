import type { Event } from '@/lib/session-service/types';

interface Flag {
  label: string;
  title: string;
  tone: 'danger' | 'warning' | 'accent' | 'muted';
}

const TONES: Record<Flag['tone'], string> = {
  danger: 'bg-danger-surface text-danger',
  warning: 'bg-warning-surface text-warning',
  accent: 'bg-accent/10 text-accent',
  muted: 'bg-surface-muted text-muted',
};

/** What sets an event apart: partial, error, interrupted, escalation, transfer. */
export function eventFlags(event: Event): Flag[] {
  const flags: Flag[] = [];
  if (event.partial) flags.push({ label: 'partial', title: 'A streamed fragment (not stored by ADK)', tone: 'muted' });
  if (event.errorCode || event.errorMessage) {
    flags.push({
      label: event.errorCode ? `error ${event.errorCode}` : 'error',
      title: event.errorMessage ?? 'The model or a tool reported an error',
      tone: 'danger',
    });
  }
  if (event.interrupted) flags.push({ label: 'interrupted', title: 'The turn was interrupted', tone: 'warning' });
  if (event.actions?.escalate) flags.push({ label: 'escalate', title: 'Escalated to the parent agent', tone: 'warning' });
  if (event.actions?.transferToAgent) {
    flags.push({ label: `transfer → ${event.actions.transferToAgent}`, title: 'Transferred control to another agent', tone: 'accent' });
  }
  return flags;
}

export function EventFlags({ event }: { event: Event }) {
  const flags = eventFlags(event);
  if (flags.length === 0) return null;
  return (
    <ul aria-label="Flags" className="flex flex-wrap gap-1">
      {flags.map((flag) => (
        <li key={flag.label} title={flag.title} className={`rounded px-1.5 py-px text-[11px] font-semibold ${TONES[flag.tone]}`}>
          {flag.label}
        </li>
      ))}
    </ul>
  );
}
