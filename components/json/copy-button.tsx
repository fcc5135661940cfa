'use client';

import { useEffect, useState } from 'react';
import { useRowTabIndex } from './row-tab-stop';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';

/** Clipboard API where the page is a secure context; a hidden textarea otherwise (plain-http hosts). */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    if (!document.execCommand('copy')) throw new Error('copy refused');
  } finally {
    area.remove();
  }
}

interface CopyButtonProps {
  /** What lands on the clipboard; a function is called only on click (large values). */
  text: string | (() => string);
  /** Accessible name, e.g. "Copy value of user:plan". */
  label: string;
  className?: string;
}

/** A small "Copy" button that says "Copied" (or "Copy failed") for a moment. */
export function CopyButton({ text, label, className = '' }: CopyButtonProps) {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  const tabIndex = useRowTabIndex();

  useEffect(() => {
    if (status === 'idle') return;
    const timer = setTimeout(() => setStatus('idle'), 1500);
    return () => clearTimeout(timer);
  }, [status]);

  const onClick = () => {
    copyText(typeof text === 'function' ? text() : text).then(
      () => setStatus('copied'),
      () => setStatus('failed'),
    );
  };

  return (
    <Button
      variant="ghost"
      size="2xs"
      onClick={onClick}
      tabIndex={tabIndex}
      aria-label={label}
      title={label}
      className={cx('inline-flex shrink-0 items-center rounded', className)}
    >
      <span aria-live="polite">{status === 'copied' ? 'Copied' : status === 'failed' ? 'Copy failed' : 'Copy'}</span>
    </Button>
  );
}
