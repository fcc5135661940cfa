// The @playwright/test the suite runs under. Playwright refuses to be loaded
// twice, and Statehouse installed from a path is a symlink whose own
// node_modules has a copy: so the kit asks for the copy the suite's own
// directory resolves, and falls back to its own only when there is none.
import { createRequire } from 'node:module';
import { join } from 'node:path';

type PlaywrightTest = typeof import('@playwright/test');

function load(): PlaywrightTest {
  try {
    return createRequire(join(process.cwd(), 'package.json'))('@playwright/test') as PlaywrightTest;
  } catch {
    return createRequire(import.meta.url)('@playwright/test') as PlaywrightTest;
  }
}

export const playwright: PlaywrightTest = load();
