'use client';

import { useEffect, useRef } from 'react';

function ignored(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  // Typing into a field, or working in a dialog (its Escape closes it, not the time travel).
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('dialog') !== null;
}

export interface TimelineKeyHandlers {
  /** j: the next event (+1), k: the previous one (-1). */
  move: (delta: 1 | -1) => void;
  /** Enter on a focused event. */
  choose: (index: number) => void;
  /** Escape: back to now. */
  leave: () => void;
}

/**
 * j / k move through the timeline from anywhere on the page (except while
 * typing in a field); Enter on a focused event selects it; Escape goes back
 * to now. The handlers may change every render; the listener stays.
 */
export function useTimelineKeys(handlers: TimelineKeyHandlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || ignored(event.target)) return;
      const { move, choose, leave } = latest.current;
      if (event.key === 'j' || event.key === 'k') {
        event.preventDefault();
        move(event.key === 'j' ? 1 : -1);
      } else if (event.key === 'Enter' && event.target instanceof HTMLElement && event.target.dataset.timelineIndex) {
        event.preventDefault();
        choose(Number(event.target.dataset.timelineIndex));
      } else if (event.key === 'Escape') {
        leave();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
