'use client';

import { useRouter } from 'next/navigation';
import { ActionOutcome } from '@/components/actions/action-outcome';
import { useAction } from '@/components/actions/use-action';
import { Button } from '@/components/ui/button';
import { removeNote } from '@/lib/actions/notes';
import type { SessionRef } from '@/lib/session-service/store';

/** Removes a note from the session (the audit log keeps it, and who removed it). */
export function RemoveNoteButton({ session, id, label }: { session: SessionRef; id: number; label: string }) {
  const router = useRouter();
  const { pending, failure, run } = useAction(removeNote);
  return (
    <>
      <Button
        variant="ghost"
        size="xs"
        disabled={pending}
        aria-label={label}
        onClick={() => run({ ...session, id }, () => router.refresh())}
      >
        Remove
      </Button>
      <ActionOutcome failure={failure} />
    </>
  );
}
