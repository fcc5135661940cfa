'use client';

import { useState } from 'react';
import type { CutValue } from '@/lib/data/value-cut';
import { inPageStore } from '@/lib/queries/session-api';
import { Button } from '@/components/ui/button';

type Loaded = { state: 'idle' } | { state: 'loading' } | { state: 'failed'; message: string } | { state: 'loaded'; text: string };

/**
 * A value the server sent cut (too large for a page): its beginning, and a
 * button that fetches the whole of it only when asked.
 */
export function CutString({ cut, label, quoted = true, tabIndex }: { cut: CutValue; label: string; quoted?: boolean; tabIndex?: number }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'idle' });
  const render = (text: string) => (quoted && !cut.json ? JSON.stringify(text) : text);

  async function load() {
    setLoaded({ state: 'loading' });
    try {
      const response = await fetch(inPageStore(cut.source), { headers: { accept: 'application/json' } });
      const body = (await response.json()) as { value?: unknown; detail?: string };
      if (!response.ok) throw new Error(body.detail ?? response.statusText);
      const text = typeof body.value === 'string' && !cut.json ? body.value : JSON.stringify(body.value, null, 2);
      setLoaded({ state: 'loaded', text });
    } catch (error) {
      setLoaded({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }

  if (loaded.state === 'loaded') return <span className="whitespace-pre-wrap break-words">{render(loaded.text)}</span>;
  const preview = quoted && !cut.json ? JSON.stringify(cut.preview).slice(0, -1) : cut.preview;
  return (
    <span className="whitespace-pre-wrap break-words">
      {preview}…
      <Button
        variant="inline"
        size="2xs"
        tabIndex={tabIndex}
        onClick={() => void load()}
        disabled={loaded.state === 'loading'}
        aria-label={`Load all of ${label} (${cut.length.toLocaleString('en')} characters)`}
        className="ml-1"
      >
        {loaded.state === 'loading' ? 'Loading…' : `Load ${cut.length.toLocaleString('en')} chars`}
      </Button>
      {loaded.state === 'failed' ? (
        <span role="alert" className="ml-1 font-sans text-[11px] text-danger">
          Could not load it: {loaded.message}
        </span>
      ) : null}
    </span>
  );
}
