'use client';

import { useStoreRouter } from './store-link';
import { useStoreId } from './use-store-id';
import { useDeferredValue, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useSearchResults, type SearchResult } from './use-search-results';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { usePathname } from 'next/navigation';
import { targetOf } from './describe-path';
import { appPath, inStore, withoutStore } from '@/lib/paths';
import { MIN_FIND_LENGTH } from '@/lib/session-service/search';

/** Apps whose events the dialog offers to search when the page names none. */
const EVENT_APPS = 3;

const KIND_LABELS: Record<SearchResult['kind'], string> = { app: 'App', user: 'User', session: 'Session' };

/** Whether a key press was meant for a text field rather than for the page. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * Find an app, a user or a session from anywhere: the header's Find button,
 * or `/` and Ctrl-K (⌘K) on any page. Results are links; arrow keys move
 * through them and Enter opens one.
 */
export function GlobalSearch() {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      const shortcut = (event.key === 'k' || event.key === 'K') && (event.ctrlKey || event.metaKey);
      const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !typingIn(event.target);
      if (!shortcut && !slash) return;
      if (document.querySelector('dialog[open]') && !shortcut) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const close = () => {
    setOpen(false);
    // Once the modal dialog is gone: while it is open, the rest of the page cannot take focus.
    requestAnimationFrame(() => opener.current?.focus());
  };

  return (
    <>
      <Button
        ref={opener}
        variant="plain"
        onClick={() => setOpen(true)}
        aria-keyshortcuts="/ Control+K Meta+K"
        className="flex items-center gap-2 rounded-md border border-border bg-background px-2.5 py-1 text-sm text-muted hover:border-border-strong hover:text-foreground"
      >
        <svg
          aria-hidden="true"
          width="14"
          height="14"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        >
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" />
        </svg>
        Find
        <span className="sr-only"> an app, user, session or state value</span>
        <kbd aria-hidden="true" className="hidden rounded border border-border px-1 font-sans text-[11px] sm:inline">
          /
        </kbd>
      </Button>
      {open ? <SearchDialog onClose={close} /> : null}
    </>
  );
}

function SearchDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const router = useStoreRouter();
  const storeId = useStoreId();
  const [term, setTerm] = useState('');
  const deferred = useDeferredValue(term);
  const pageApp = targetOf(withoutStore(usePathname()))?.appName;
  const { results, searching, coverage, error } = useSearchResults(deferred);
  // The events of the page's app, or of the apps found, searched for the same text (the app page's Events tab).
  const eventApps = pageApp !== undefined ? [pageApp] : [...new Set(results.map((result) => result.appName))].slice(0, EVENT_APPS);
  const [active, setActive] = useState(0);
  const ids = { title: useId(), list: useId(), hint: useId() };
  const optionId = (index: number) => `${ids.list}-${index}`;
  const current = Math.min(active, results.length - 1);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const go = (result: SearchResult | undefined) => {
    if (!result) return;
    onClose();
    router.push(result.href);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const moves: Record<string, number> = { ArrowDown: current + 1, ArrowUp: current - 1, Home: 0, End: results.length - 1 };
    if (event.key in moves && results.length > 0) {
      event.preventDefault();
      const next = Math.max(0, Math.min(results.length - 1, moves[event.key] ?? 0));
      setActive(next);
      document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      go(results[current]);
    }
  };

  const q = deferred.trim();
  return (
    <dialog
      ref={dialog}
      aria-labelledby={ids.title}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === dialog.current) onClose();
      }}
      className="mx-auto mt-[10vh] max-h-[80dvh] w-[min(36rem,calc(100vw-2rem))] overflow-hidden rounded-lg border border-border bg-surface p-0 text-foreground shadow-xl backdrop:bg-black/40"
    >
      <div className="flex max-h-[80dvh] flex-col">
        <div className="border-b border-border p-3">
          <h2 id={ids.title} className="sr-only">
            Search apps, users, sessions and state values
          </h2>
          <Input
            type="text"
            role="combobox"
            aria-label="Search apps, users, sessions and state values"
            aria-expanded={results.length > 0}
            aria-controls={ids.list}
            aria-autocomplete="list"
            aria-activedescendant={results.length > 0 ? optionId(current) : undefined}
            aria-describedby={ids.hint}
            autoFocus
            autoComplete="off"
            spellCheck={false}
            value={term}
            onChange={(event) => {
              setTerm(event.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
            placeholder="A name, id, title, label or state value"
            className="w-full px-3 py-2"
          />
          <p id={ids.hint} className="mt-1.5 text-xs text-muted">
            ↑ ↓ to choose, Enter to open, Esc to close.
            {storeId !== undefined ? ` Searching the store “${storeId}”.` : ''}
            {coverage
              ? ` Searched ${coverage.searched.toLocaleString('en')} of ${coverage.total.toLocaleString('en')} ${coverage.unit}${
                  coverage.indexBuilt === undefined ? '' : ` (search index ${coverage.indexBuilt}% built)`
                }.`
              : ''}
          </p>
        </div>
        <ul id={ids.list} role="listbox" aria-label="Results" className="min-h-0 flex-1 overflow-y-auto p-1">
          {results.map((result, index) => (
            <li
              key={`${result.kind}\u0000${result.href}`}
              id={optionId(index)}
              role="option"
              aria-selected={index === current}
              onMouseEnter={() => setActive(index)}
              onClick={() => go(result)}
              className={`flex cursor-pointer items-baseline gap-2 rounded-md px-2 py-1.5 text-sm ${index === current ? 'bg-accent text-accent-foreground' : ''}`}
            >
              <span className={`w-16 shrink-0 text-xs font-medium uppercase tracking-wide ${index === current ? '' : 'text-muted'}`}>
                {KIND_LABELS[result.kind]}
              </span>
              <span className="min-w-0 break-words">
                <bdi className="font-mono">{result.id}</bdi>
                {result.detail ? (
                  <span className={`block text-xs ${index === current ? '' : 'text-muted'}`}>
                    <bdi>{result.detail}</bdi>
                  </span>
                ) : null}
              </span>
              <span className={`ml-auto shrink-0 truncate text-xs ${index === current ? '' : 'text-muted'}`}>
                <bdi>{result.context}</bdi>
              </span>
            </li>
          ))}
        </ul>
        {q.length >= MIN_FIND_LENGTH && eventApps.length > 0 ? (
          <ul aria-label="Search events" className="border-t border-border px-3 py-2 text-xs">
            {eventApps.map((appName) => (
              <li key={appName}>
                <a
                  href={inStore(`${appPath(appName)}?${new URLSearchParams({ tab: 'events', text: q }).toString()}`, storeId)}
                  onClick={(event) => {
                    event.preventDefault();
                    onClose();
                    router.push(`${appPath(appName)}?${new URLSearchParams({ tab: 'events', text: q }).toString()}`);
                  }}
                  className="text-accent hover:text-accent-hover hover:underline"
                >
                  Events of <bdi className="font-mono">{appName}</bdi> containing “<bdi>{q}</bdi>”
                </a>
              </li>
            ))}
          </ul>
        ) : null}
        <p role="status" className="border-t border-border px-3 py-2 text-xs text-muted empty:hidden">
          {error
            ? `Search failed: ${error}`
            : q === ''
              ? ''
              : searching && results.length === 0
                ? 'Searching…'
                : results.length === 0
                  ? `No app, user, session or state value matches “${q}”.`
                  : `${results.length} result${results.length === 1 ? '' : 's'}${searching ? ', still searching…' : ''}`}
        </p>
      </div>
    </dialog>
  );
}
