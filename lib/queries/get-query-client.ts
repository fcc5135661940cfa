// One QueryClient per browser tab, a fresh one for every server render, as in
// TanStack Query's Next.js App Router example: a server-side singleton would
// share one user's cached data with every other request.
import { defaultShouldDehydrateQuery, environmentManager, QueryClient } from '@tanstack/react-query';

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Above zero so data rendered on the server is not refetched the moment it hydrates.
        staleTime: 60 * 1000,
      },
      dehydrate: {
        // Pending queries too, so a server component can start a fetch and stream its result.
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === 'pending',
        // Next.js detects dynamic rendering by the errors it throws and redacts errors itself.
        shouldRedactErrors: () => false,
      },
    },
  });
}

/** One per store the tab has shown: two stores may hold an app, user and session of the same names. */
const browserQueryClients = new Map<string, QueryClient>();

/** `store`: the store the page shows (undefined at the root, the first store). */
export function getQueryClient(store?: string): QueryClient {
  if (environmentManager.isServer()) return makeQueryClient();
  const key = store ?? '';
  let client = browserQueryClients.get(key);
  if (!client) {
    client = makeQueryClient();
    browserQueryClients.set(key, client);
  }
  return client;
}
