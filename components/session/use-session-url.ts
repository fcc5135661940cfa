'use client';

import { useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import type { NormalFilters } from '@/lib/queries/session';
import { parseSessionUrl, sessionUrlSearch, type SessionUrlState } from '@/lib/queries/session-url';

/** The parameters sessionUrlSearch writes. */
const OWN_PARAMS = new Set(['event', 'compare', 'author', 'invocation', 'key', 'text', 'tool', 'errors', 'from', 'to']);

export interface SessionUrlChange {
  event?: number | null;
  compare?: number | null;
  filters?: Partial<NormalFilters>;
}

/**
 * The page's URL state and a setter. Changes go through the History API,
 * which Next's router observes: the URL (a deep link) and useSearchParams
 * update without asking the server to render the page again.
 */
export function useSessionUrl(): [SessionUrlState, (change: SessionUrlChange, options?: { replace?: boolean }) => void] {
  const params = useSearchParams();
  const state = useMemo(() => parseSessionUrl((name) => params.get(name)), [params]);
  const update = useCallback((change: SessionUrlChange, options: { replace?: boolean } = {}) => {
    const current = parseSessionUrl((name) => new URLSearchParams(window.location.search).get(name));
    const next: SessionUrlState = {
      event: change.event === undefined ? current.event : change.event,
      compare: change.compare === undefined ? current.compare : change.compare,
      filters: { ...current.filters, ...change.filters },
    };
    if (next.event === null) next.compare = null;
    // Parameters this hook does not own (the template preview's) stay as they are.
    const params = new URLSearchParams(sessionUrlSearch(next));
    new URLSearchParams(window.location.search).forEach((value, name) => {
      if (!OWN_PARAMS.has(name)) params.append(name, value);
    });
    const search = params.toString();
    const url = `${window.location.pathname}${search ? `?${search}` : ''}`;
    if (url === `${window.location.pathname}${window.location.search}`) return;
    if (options.replace) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
  }, []);
  return [state, update];
}
