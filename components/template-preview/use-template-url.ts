'use client';

import { useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import type { TemplateDialect } from '@/lib/session-service/template';

/**
 * Node refuses request headers over 16 KiB (431), so a link must stay well
 * under that to open again; longer texts stay on the page, unshared.
 */
export const MAX_SHARED_URL_LENGTH = 8000;
const WRITE_DELAY_MS = 300;

export function dialectOf(text: string | null | undefined): TemplateDialect {
  return text === 'typescript' ? 'typescript' : 'python';
}

/** The current URL with search parameters set (or, for null, removed), keeping every other one and the hash. */
export function withParams(changes: Record<string, string | null>): string {
  const url = new URL(window.location.href);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Replaces the current history entry. Next's router observes the History API:
 * useSearchParams follows, and the server is not asked to render again.
 */
export function replaceParams(changes: Record<string, string | null>): void {
  const target = withParams(changes);
  if (target !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
    window.history.replaceState(null, '', target);
  }
}

export interface UrlText {
  value: string;
  setValue: (value: string) => void;
  /** False when the text is too long to keep in the address bar. */
  shareable: boolean;
}

/**
 * Text typed into the page and kept in one search parameter, so the address
 * bar is a link to what is on screen. Typing stays local and the URL follows
 * a moment later (browsers throttle history updates); other parameters stay.
 * While not `active`, the URL is left alone.
 */
export function useUrlText(name: string, fallback = '', active = true): UrlText {
  const params = useSearchParams();
  const [value, setValue] = useState(() => params.get(name) ?? fallback);
  const [shareable, setShareable] = useState(true);
  // Until the text is changed the URL already says what the page shows, and a
  // late write would race a navigation the visitor starts right after load.
  const initial = useRef(value);
  const changed = useRef(false);

  useEffect(() => {
    if (value !== initial.current) changed.current = true;
    if (!active || !changed.current) return;
    const timer = setTimeout(() => {
      const fits = withParams({ [name]: value === '' ? null : value }).length <= MAX_SHARED_URL_LENGTH;
      setShareable(fits);
      replaceParams({ [name]: fits && value !== '' ? value : null });
    }, WRITE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [name, value, active]);

  return { value, setValue, shareable };
}

export interface TemplateUrlState {
  template: string;
  setTemplate: (template: string) => void;
  dialect: TemplateDialect;
  setDialect: (dialect: TemplateDialect) => void;
  shareable: boolean;
}

/** The template and dialect of a preview, kept in the URL (`?template=…&dialect=typescript`). */
export function useTemplateUrl(fallbackTemplate = ''): TemplateUrlState {
  const params = useSearchParams();
  const text = useUrlText('template', fallbackTemplate);
  const [dialect, setDialectState] = useState<TemplateDialect>(() => dialectOf(params.get('dialect')));
  const setDialect = (next: TemplateDialect) => {
    setDialectState(next);
    replaceParams({ dialect: next === 'python' ? null : next });
  };
  return { template: text.value, setTemplate: text.setValue, dialect, setDialect, shareable: text.shareable };
}
