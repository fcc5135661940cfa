'use client';

import { useSyncExternalStore } from 'react';
import { isTheme, THEME_STORAGE_KEY, THEMES, type Theme } from './theme';
import { Choice } from '@/components/ui/choice';

const LABELS: Record<Theme, string> = { light: 'Light', dark: 'Dark', system: 'System' };

const listeners = new Set<() => void>();

function readTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return isTheme(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

function applyTheme(theme: Theme): void {
  try {
    if (theme === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage blocked (private mode, policy): the choice lasts for this page only.
  }
  if (theme === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', theme);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed the choice.
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY) applyTheme(readTheme());
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Light, dark or the operating system's choice; stored in this browser. */
export function ThemeSwitch() {
  // The server cannot know the stored choice; it renders "system" and the
  // browser corrects the selection right after hydration (the colours
  // themselves are already right, from the script in <head>).
  const theme = useSyncExternalStore(subscribe, readTheme, () => 'system' as const);
  return (
    <fieldset className="flex items-center rounded-md border border-border bg-surface-muted p-0.5 text-xs">
      <legend className="sr-only">Theme</legend>
      {THEMES.map((option) => (
        <Choice
          key={option}
          type="radio"
          name="theme"
          value={option}
          checked={theme === option}
          onChange={() => applyTheme(option)}
          // Over the whole label, invisible: the label is the target, the input keeps the semantics.
          className="absolute inset-0 cursor-pointer appearance-none rounded opacity-0"
          title={`${LABELS[option]} theme`}
          labelClassName="relative cursor-pointer gap-0 rounded px-2 py-1 text-xs text-muted has-checked:bg-surface has-checked:text-foreground has-checked:shadow-sm has-focus-visible:outline-2 has-focus-visible:outline-accent"
        >
          <ThemeIcon theme={option} />
          <span className="sr-only sm:not-sr-only sm:ml-1">{LABELS[option]}</span>
        </Choice>
      ))}
    </fieldset>
  );
}

function ThemeIcon({ theme }: { theme: Theme }) {
  const common = {
    'aria-hidden': true,
    width: 14,
    height: 14,
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 2,
    strokeLinecap: 'round' as const,
    strokeLinejoin: 'round' as const,
    className: 'inline-block align-[-2px]',
  };
  if (theme === 'light') {
    return (
      <svg {...common}>
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
      </svg>
    );
  }
  if (theme === 'dark') {
    return (
      <svg {...common}>
        <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
      </svg>
    );
  }
  return (
    <svg {...common}>
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4" />
    </svg>
  );
}
