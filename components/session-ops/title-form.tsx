'use client';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { OpForm } from './op-form';
import { useAction } from '@/components/actions/use-action';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { setSessionMeta } from '@/lib/actions/session-ops';
import type { SessionMeta } from '@/lib/session-service/operations';
import type { SessionRef } from '@/lib/session-service/store';

export function TitleForm({ session, meta, onClose }: { session: SessionRef; meta: SessionMeta; onClose: () => void }) {
  const router = useRouter();
  const id = useId();
  const [title, setTitle] = useState(meta.title ?? '');
  const [labels, setLabels] = useState(meta.labels.join(', '));
  const { pending, failure, run } = useAction(setSessionMeta);
  return (
    <OpForm
      title="Title and labels"
      onSubmit={() =>
        run({ ...session, title, labels }, () => {
          router.refresh();
          onClose();
        })
      }
      failure={failure}
      pending={pending}
      submit={['Save', 'Saving…']}
      onClose={onClose}
    >
      <div>
        <Label htmlFor={`${id}-title`}>Title</Label>
        <Input id={`${id}-title`} value={title} onChange={(event) => setTitle(event.target.value)} />
      </div>
      <div>
        <Label htmlFor={`${id}-labels`}>Labels (separated by commas or spaces)</Label>
        <Input id={`${id}-labels`} value={labels} onChange={(event) => setLabels(event.target.value)} className="font-mono" />
      </div>
    </OpForm>
  );
}
