'use client';

import { useState } from 'react';
import { parseCut } from '@/lib/data/value-cut';
import { CutString } from './cut-string';
import { foldedPreview, isFoldedString } from './json-format';
import { useRowTabIndex } from './row-tab-stop';
import { Button } from '@/components/ui/button';

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
  const tabIndex = useRowTabIndex();
  const cut = parseCut(text);
  if (cut) return <CutString cut={cut} label={label} quoted={quoted} tabIndex={tabIndex} />;
  const render = (value: string) => (quoted ? JSON.stringify(value) : value);
  // <bdi>: right-to-left text keeps its quotes and does not reorder what surrounds it.
  if (!isFoldedString(text)) return <bdi className="whitespace-pre-wrap break-words">{render(text)}</bdi>;
  const preview = foldedPreview(text);
  const hidden = text.length - preview.length;
  return (
    <span className="whitespace-pre-wrap break-words">
      <bdi>{open ? render(text) : `${quoted ? JSON.stringify(preview).slice(0, -1) : preview}…`}</bdi>
      <Button variant="inline" size="2xs" onClick={() => setOpen(!open)} aria-expanded={open} tabIndex={tabIndex} className="ml-1">
        <span className="sr-only">{`${open ? 'Fold' : 'Show all of'} ${label} (${text.length.toLocaleString('en')} characters): `}</span>
        {open ? 'Show less' : `+${hidden.toLocaleString('en')} chars`}
      </Button>
    </span>
  );
}
