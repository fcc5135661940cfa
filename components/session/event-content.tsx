import { FoldedString, JsonTree } from '@/components/json';
import type { Content, JsonObject, JsonValue, Part } from '@/lib/session-service/types';

/** An event's content: text as text, function calls and responses by name with their arguments, anything else as JSON. */
export function EventContent({ content, label }: { content: Content | undefined; label: string }) {
  const parts: (Part | null)[] = Array.isArray(content?.parts) ? content.parts : [];
  if (parts.length === 0) return null;
  return (
    <div className="space-y-1.5">
      {parts.map((part, index) => (
        <PartView key={index} part={part} label={parts.length > 1 ? `${label} part ${index + 1}` : label} />
      ))}
    </div>
  );
}

function PartView({ part, label }: { part: Part | null; label: string }) {
  // Stored content is whatever the agent's database holds: a part that is not an object is shown as the JSON it is.
  if (typeof part !== 'object' || part === null || Array.isArray(part)) {
    return <JsonTree value={part as JsonValue} label={`${label} (not a part)`} expandDepth={1} />;
  }
  if (typeof part.text === 'string') {
    return (
      <div className={`text-sm leading-6 ${part.thought === true ? 'italic text-muted' : ''}`}>
        {part.thought === true ? <span className="mr-1 text-xs font-medium not-italic">Thought:</span> : null}
        <FoldedString text={part.text} label={`${label} text`} quoted={false} />
      </div>
    );
  }
  if (part.functionCall) {
    const { name, id, args } = part.functionCall;
    return <FunctionPart kind="Function call" name={name} id={id} value={args} label={`${label} ${name} arguments`} />;
  }
  if (part.functionResponse) {
    const { name, id, response } = part.functionResponse;
    return <FunctionPart kind="Function response" name={name} id={id} value={response} label={`${label} ${name} response`} />;
  }
  const kind = Object.keys(part)[0] ?? 'part';
  return (
    <div className="rounded-md border border-dashed border-border px-2 py-1.5">
      <p className="text-xs font-medium text-muted">{kind}</p>
      <JsonTree value={part as JsonValue} label={`${label} ${kind}`} expandDepth={1} />
    </div>
  );
}

/** A function call or response: the function's name, the call id that pairs them, and the arguments or response as JSON. */
function FunctionPart({
  kind,
  name,
  id,
  value,
  label,
}: {
  kind: string;
  name: string;
  id?: string;
  value: JsonObject | undefined;
  label: string;
}) {
  return (
    <div className="rounded-md border border-border bg-surface-muted/60 px-2 py-1.5">
      <p className="text-xs">
        <span className="font-medium text-muted">{kind}</span> <code className="font-semibold text-accent">{name}</code>
        {id ? <span className="ml-2 font-mono text-[11px] text-muted">{id}</span> : null}
      </p>
      <JsonTree value={value ?? {}} label={label} expandDepth={1} />
    </div>
  );
}
