'use client';

import { useEffect, useRef, type ReactNode } from 'react';
import { cx } from './cx';

interface DialogProps {
  open: boolean;
  /** Escape or the browser's own close: the owner decides what closing means (it may keep a draft). */
  onCancel: () => void;
  /** The id of the dialog's heading. */
  labelledBy: string;
  className?: string;
  children: ReactNode;
}

/**
 * A modal dialog on the browser's <dialog>: focus is trapped and Escape
 * works natively; `open` drives showModal()/close() so React state stays
 * the one source of whether it shows. Fits a phone (scrolls within the viewport).
 */
export function Dialog({ open, onCancel, labelledBy, className, children }: DialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      className={cx(
        'm-auto max-h-[calc(100dvh-2rem)] w-[min(40rem,calc(100vw-2rem))] overflow-y-auto rounded-lg border border-border bg-surface p-0 text-foreground shadow-xl backdrop:bg-black/40',
        className,
      )}
    >
      {children}
    </dialog>
  );
}
