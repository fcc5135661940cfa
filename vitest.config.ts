import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    include: ['lib/**/*.test.ts', 'app/**/*.test.ts', 'components/**/*.test.ts', 'scripts/**/*.test.ts', 'examples/**/*.test.ts'],
    exclude: ['node_modules/**', 'e2e/**', '.next/**', '.next-*/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Route handlers and actions under test run as the console does from
    // `npm start`: on 127.0.0.1, so in local mode unless a test says otherwise.
    env: { STATEHOUSE_HOST: '127.0.0.1' },
  },
});
