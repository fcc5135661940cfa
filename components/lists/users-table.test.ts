// The app page's Users tab: a user with no readable update time says so,
// as session lists do, instead of a date in 1970.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it, vi } from 'vitest';
import { UsersTable } from './users-table';

// Outside a Next request: the default store's routes, no store segment in the URL.
vi.mock('next/navigation', () => ({ useParams: () => ({}), usePathname: () => '/apps/app', useSearchParams: () => new URLSearchParams() }));

it('shows "unreadable" for a user with no readable last activity, and a time for the others', () => {
  const now = Date.UTC(2026, 10, 26);
  const html = renderToStaticMarkup(
    createElement(UsersTable, {
      appName: 'app',
      users: [
        { userId: 'alice', sessionCount: 1, lastUpdateTime: now / 1000 - 3600 },
        { userId: 'ghost', sessionCount: 1, lastUpdateTime: null },
      ],
      sort: 'recent',
      pathname: '/apps/app',
      query: {},
      now,
    }),
  );
  const ghost = html.slice(html.indexOf('ghost'));
  expect(ghost).toContain('unreadable');
  expect(html).not.toContain('1970');
  expect(html).toContain('1 hour ago');
});
