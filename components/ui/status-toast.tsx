'use client';

import { useEffect } from 'react';
import { Button } from './button';

export interface StatusMessage {
  text: string;
  tone: 'success' | 'pending' | 'danger';
}

const TONES: Record<StatusMessage['tone'], string> = {
  success: 'border-success/40 bg-success-surface text-success',
  pending: 'border-border bg-surface text-foreground',
  danger: 'border-danger/40 bg-danger-surface text-danger',
};

/**
 * The outcome of a write ("Saved user:plan.") where it is seen: a box at the
 * bottom of the screen that announces itself (role=status) and goes away by
 * itself after a while, or when dismissed. The live region stays in the page
 * while empty, so screen readers hear every message put into it.
 */
export function StatusToast({ message, onDismiss }: { message: StatusMessage | null; onDismiss: () => void }) {
  useEffect(() => {
    if (!message || message.tone === 'pending') return;
    const timer = setTimeout(onDismiss, message.tone === 'success' ? 6000 : 12_000);
    return () => clearTimeout(timer);
  }, [message, onDismiss]);

  return (
    <div role="status" className="pointer-events-none fixed inset-x-4 bottom-4 z-40 flex justify-center sm:inset-x-auto sm:right-6">
      {message ? (
        <p
          className={`pointer-events-auto flex items-center gap-3 rounded-lg border px-4 py-2.5 text-sm font-medium shadow-lg ${TONES[message.tone]}`}
        >
          <span>{message.text}</span>
          <Button variant="ghost" size="xs" onClick={onDismiss} className="px-1 font-semibold text-current underline underline-offset-2">
            Dismiss
          </Button>
        </p>
      ) : null}
    </div>
  );
}
