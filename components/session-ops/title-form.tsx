'use client';

import { ActionOutcome } from '@/components/actions/action-outcome';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { panelClass } from '@/components/ui/panel';
import { useAction } from '@/components/actions/use-action';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { setSessionMeta } from '@/lib/actions/session-ops';
import type { SessionMeta } from '@/lib/session-service/operations';
import type { SessionRef } from '@/lib/session-service/store';

const PANEL = panelClass({ className: 'space-y-3 p-4' });

export function TitleForm({ session, meta, onClose }: { session: SessionRef; meta: SessionMeta; onClose: () => void }) {
  const router = useRouter();
  const id = useId();
  const [title, setTitle] = useState(meta.title ?? '');
  const [labels, setLabels] = useState(meta.labels.join(', '));
  const { pending, failure, run } = useAction(setSessionMeta);
  return (
    <form
      className={PANEL}
      aria-label="Title and labels"
      onSubmit={(event) => {
        event.preventDefault();
        run({ ...session, title, labels }, () => {
          router.refresh();
          onClose();
        });
      }}
    >
      <h2 className="font-semibold">Title and labels</h2>
      <div>
        <Label htmlFor={`${id}-title`}>Title</Label>
        <Input id={`${id}-title`} value={title} onChange={(event) => setTitle(event.target.value)} />
      </div>
      <div>
        <Label htmlFor={`${id}-labels`}>Labels (separated by commas or spaces)</Label>
        <Input id={`${id}-labels`} value={labels} onChange={(event) => setLabels(event.target.value)} className="font-mono" />
      </div>
      <ActionOutcome failure={failure} />
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={pending}>
          {pending ? 'Saving…' : 'Save'}
        </Button>
        <Button onClick={onClose}>Cancel</Button>
      </div>
    </form>
  );
}
