'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { ActionOutcome } from '@/components/actions/action-outcome';
import { useAction } from '@/components/actions/use-action';
import { Button } from '@/components/ui/button';
import { Form } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/input';
import { addNote } from '@/lib/actions/notes';
import type { SessionRef } from '@/lib/session-service/store';
import { MAX_NOTE_LENGTH } from '@/lib/session-service/notes';

/** A note for the next shift; signed with the account's name, kept in Statehouse's own database. */
export function NoteForm({ session }: { session: SessionRef }) {
  const router = useRouter();
  const id = useId();
  const [text, setText] = useState('');
  const { pending, failure, run, fieldError } = useAction(addNote);
  const problem = fieldError('text');
  return (
    <Form
      aria-label="Add a note"
      className="space-y-2"
      onSubmit={() => {
        run({ ...session, text }, () => {
          setText('');
          router.refresh();
        });
      }}
    >
      <Label htmlFor={`${id}-text`}>New note</Label>
      <Textarea
        id={`${id}-text`}
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={2}
        maxLength={MAX_NOTE_LENGTH}
        invalid={problem !== null}
        className="w-full"
        placeholder="What the next shift should know"
      />
      <ActionOutcome failure={failure} />
      <Button type="submit" variant="secondary" disabled={pending || text.trim() === ''}>
        {pending ? 'Saving…' : 'Add note'}
      </Button>
    </Form>
  );
}
