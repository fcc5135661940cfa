// Which Chromium the end-to-end tests drive, and how. Build machines cannot
// download Playwright's browsers, so a system Chromium comes first; a
// developer laptop with `npx playwright install chromium` works as well.
import { existsSync } from 'node:fs';
import { chromium, type LaunchOptions } from '@playwright/test';

export const CHROMIUM_ENV = 'PLAYWRIGHT_CHROMIUM_EXECUTABLE';
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * Chromium otherwise keeps calling home (updates, sync, field trials), which
 * hangs or spams errors offline. /dev/shm is tiny in containers, and Chromium
 * crashes when it runs out there.
 */
const QUIET_FLAGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** The executable to launch: undefined means Playwright's own download. */
export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env[CHROMIUM_ENV]?.trim();
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`${CHROMIUM_ENV} is set to ${fromEnv}, but there is no file there.`);
    return fromEnv;
  }
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  let downloaded = '';
  try {
    downloaded = chromium.executablePath();
  } catch {
    // No browser registry entry at all: same as not downloaded.
  }
  if (downloaded && existsSync(downloaded)) return undefined;
  throw new Error(
    [
      'No Chromium found for the end-to-end tests. Install one of:',
      '  - Debian/Ubuntu: apt-get install -y chromium   (gives /usr/bin/chromium)',
      '  - anywhere with internet access: npx playwright install chromium',
      `or point ${CHROMIUM_ENV} at a Chromium or Chrome executable.`,
    ].join('\n'),
  );
}

export function chromiumLaunchOptions(): LaunchOptions {
  const args = [...QUIET_FLAGS];
  // Chromium refuses to start its sandbox as root (containers, CI).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const executablePath = chromiumExecutable();
  return executablePath ? { executablePath, args } : { args };
}
