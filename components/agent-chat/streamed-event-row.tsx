import type { AgentEvent } from '@/lib/queries/agent-send';
import { Button } from '@/components/ui/button';

/** What an event says, in one line: its text, or the function it calls or answers. */
function summary(event: AgentEvent): string {
  const parts = event.content?.parts ?? [];
  const said = parts
    .map(
      (part) =>
        part.text ??
        (part.functionCall
          ? `→ ${part.functionCall.name ?? 'function'}(…)`
          : part.functionResponse
            ? `← ${part.functionResponse.name ?? 'function'}`
            : ''),
    )
    .filter(Boolean)
    .join(' ');
  return said || '(no content)';
}

/** One event the agent streamed, with the state keys it changed and its timeline row once the store holds it. */
export function StreamedEventRow({
  event,
  seq,
  onSelect,
}: {
  event: AgentEvent;
  seq: number | undefined;
  onSelect: (seq: number) => void;
}) {
  const keys = Object.keys(event.actions?.stateDelta ?? {});
  return (
    <li data-event-id={event.id} className="flex flex-wrap items-baseline gap-x-2 text-sm">
      {seq === undefined ? (
        <span className="font-mono text-xs text-muted">…</span>
      ) : (
        <Button variant="link" className="font-mono text-xs" onClick={() => onSelect(seq)} aria-label={`Event #${seq} in the timeline`}>
          #{seq}
        </Button>
      )}
      <span className="font-medium">{event.author}</span>
      <span className="min-w-0 break-words">{summary(event)}</span>
      {keys.length > 0 ? <span className="text-xs text-muted">sets {keys.join(', ')}</span> : null}
    </li>
  );
}
