import { Panel } from '@/components/ui/panel';
import type { UnreadableNote } from '@/lib/session-service/types';

/** What of a stored event Statehouse could not read as its ADK writes it: the column, why, and the raw text found there. */
export function UnreadableNotes({ notes, label }: { notes: UnreadableNote[] | undefined; label: string }) {
  if (!notes || notes.length === 0) return null;
  return (
    <Panel tone="danger" role="note" aria-label={`${label}: unreadable in storage`} className="space-y-1 px-2 py-1.5 text-xs">
      <p className="font-medium text-danger">Stored row not readable as written; shown as far as it could be read.</p>
      <ul className="space-y-1">
        {notes.map((note, index) => (
          <li key={index}>
            <code className="font-semibold">{note.column}</code>: {note.reason}
            <pre className="mt-0.5 max-h-24 overflow-auto whitespace-pre-wrap break-all rounded bg-surface-muted/60 px-1.5 py-1 font-mono text-[11px]">
              {note.raw}
            </pre>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
