'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { setSessionMeta } from '@/lib/actions/session-ops';
import type { SessionMeta } from '@/lib/session-service/operations';
import type { SessionRef } from '@/lib/session-service/store';
import { Refusal } from './refusal';
import { button, input, label, panel, primaryButton } from './styles';
import { useOperation } from './use-operation';

export function TitleForm({ session, meta, onClose }: { session: SessionRef; meta: SessionMeta; onClose: () => void }) {
  const router = useRouter();
  const id = useId();
  const [title, setTitle] = useState(meta.title ?? '');
  const [labels, setLabels] = useState(meta.labels.join(', '));
  const { pending, refusal, run } = useOperation(setSessionMeta);
  return (
    <form
      className={panel}
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
        <label htmlFor={`${id}-title`} className={label}>
          Title
        </label>
        <input id={`${id}-title`} value={title} onChange={(event) => setTitle(event.target.value)} className={input} />
      </div>
      <div>
        <label htmlFor={`${id}-labels`} className={label}>
          Labels (separated by commas or spaces)
        </label>
        <input id={`${id}-labels`} value={labels} onChange={(event) => setLabels(event.target.value)} className={`${input} font-mono`} />
      </div>
      <Refusal refusal={refusal} />
      <div className="flex gap-2">
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onClose} className={button}>
          Cancel
        </button>
      </div>
    </form>
  );
}
