'use client';

import { useState } from 'react';
import { foldedPreview, isFoldedString } from './json-format';

interface FoldedStringProps {
  text: string;
  /** Accessible name of the value, for the show/hide button. */
  label: string;
  /** JSON string literal (quoted, escaped) or plain text as it is (event text parts). */
  quoted?: boolean;
}

/** A string, folded to its beginning when long, with a button to show all of it. */
export function FoldedString({ text, label, quoted = true }: FoldedStringProps) {
  const [open, setOpen] = useState(false);
  const render = (value: string) => (quoted ? JSON.stringify(value) : value);
  if (!isFoldedString(text)) return <span className="whitespace-pre-wrap break-words">{render(text)}</span>;
  const preview = foldedPreview(text);
  const hidden = text.length - preview.length;
  return (
    <span className="whitespace-pre-wrap break-words">
      {open ? render(text) : `${quoted ? JSON.stringify(preview).slice(0, -1) : preview}…`}
      <button
        type="button"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        aria-label={`${open ? 'Fold' : 'Show all of'} ${label} (${text.length.toLocaleString('en')} characters)`}
        className="ml-1 rounded bg-surface-muted px-1.5 py-0.5 font-sans text-[11px] font-medium text-accent hover:text-accent-hover"
      >
        {open ? 'Show less' : `+${hidden.toLocaleString('en')} chars`}
      </button>
    </span>
  );
}
