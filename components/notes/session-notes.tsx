import { Timestamp } from '@/components/state';
import { panelClass } from '@/components/ui/panel';
import { plural } from '@/components/ui/format';
import type { SessionNote } from '@/lib/session-service/notes';
import type { SessionRef } from '@/lib/session-service/store';
import { NoteForm } from './note-form';
import { RemoveNoteButton } from './remove-note-button';

/** The session's notes, oldest first, and (for those who may) a form for another. */
export function SessionNotes({ session, notes, canWrite }: { session: SessionRef; notes: SessionNote[]; canWrite: boolean }) {
  return (
    <section aria-labelledby="notes-heading" className={panelClass({ className: 'space-y-3 p-4' })}>
      <h2 id="notes-heading" className="text-lg font-semibold">
        Notes <span className="text-sm font-normal text-muted">{notes.length === 0 ? 'none yet' : plural(notes.length, 'note')}</span>
      </h2>
      {notes.length > 0 ? (
        <ol aria-label="Notes on this session" className="space-y-2">
          {notes.map((note) => (
            <li key={note.id} className="rounded-md border border-border px-3 py-2 text-sm">
              <p className="flex flex-wrap items-baseline gap-x-2 text-xs text-muted">
                <span className="font-medium text-foreground">{note.author}</span>
                <Timestamp seconds={note.time} />
                {canWrite ? <RemoveNoteButton session={session} id={note.id} label={`Remove the note by ${note.author}`} /> : null}
              </p>
              <p className="mt-1 whitespace-pre-wrap break-words">{note.text}</p>
            </li>
          ))}
        </ol>
      ) : null}
      {canWrite ? <NoteForm session={session} /> : null}
    </section>
  );
}
