import { FoldedString, JsonTree } from '@/components/json';
import type { Content, JsonValue, Part } from '@/lib/session-service/types';

/** An event's content: text as text, function calls and responses by name with their arguments, anything else as JSON. */
export function EventContent({ content, label }: { content: Content | undefined; label: string }) {
  const parts = content?.parts ?? [];
  if (parts.length === 0) return null;
  return (
    <div className="space-y-1.5">
      {parts.map((part, index) => (
        <PartView key={index} part={part} label={parts.length > 1 ? `${label} part ${index + 1}` : label} />
      ))}
    </div>
  );
}

function PartView({ part, label }: { part: Part; label: string }) {
  if (typeof part.text === 'string') {
    return (
      <div className={`text-sm leading-6 ${part.thought === true ? 'italic text-muted' : ''}`}>
        {part.thought === true ? <span className="mr-1 text-xs font-medium not-italic">Thought:</span> : null}
        <FoldedString text={part.text} label={`${label} text`} quoted={false} />
      </div>
    );
  }
  if (part.functionCall) {
    const call = part.functionCall;
    return (
      <div className="rounded-md border border-border bg-surface-muted/60 px-2 py-1.5">
        <p className="text-xs">
          <span className="font-medium text-muted">Function call</span>{' '}
          <code className="font-semibold text-accent">{call.name}</code>
          {call.id ? <span className="ml-2 font-mono text-[11px] text-muted">{call.id}</span> : null}
        </p>
        <JsonTree value={(call.args ?? {}) as JsonValue} label={`${label} ${call.name} arguments`} expandDepth={1} />
      </div>
    );
  }
  if (part.functionResponse) {
    const response = part.functionResponse;
    return (
      <div className="rounded-md border border-border bg-surface-muted/60 px-2 py-1.5">
        <p className="text-xs">
          <span className="font-medium text-muted">Function response</span>{' '}
          <code className="font-semibold text-accent">{response.name}</code>
          {response.id ? <span className="ml-2 font-mono text-[11px] text-muted">{response.id}</span> : null}
        </p>
        <JsonTree value={(response.response ?? {}) as JsonValue} label={`${label} ${response.name} response`} expandDepth={1} />
      </div>
    );
  }
  const kind = Object.keys(part)[0] ?? 'part';
  return (
    <div className="rounded-md border border-dashed border-border px-2 py-1.5">
      <p className="text-xs font-medium text-muted">{kind}</p>
      <JsonTree value={part as JsonValue} label={`${label} ${kind}`} expandDepth={1} />
    </div>
  );
}
