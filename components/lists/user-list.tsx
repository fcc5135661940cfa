import { findUsers } from '@/lib/data/users';
import { DEFAULT_PAGE_SIZE, type UserListQuery } from '@/lib/data/list-params';
import { EmptyState } from './empty-state';
import type { ListQuery } from './href';
import { Pagination } from './pagination';
import { UsersTable } from './users-table';

interface UserListProps {
  appName: string;
  query: UserListQuery;
  pathname: string;
  /** Parameters of the page the list lives on that its links keep (the app page's tab). */
  pageParams?: ListQuery;
}

/** One page of an app's users, searched and sorted as the URL says, with its pagination. */
export async function UserList({ appName, query, pathname, pageParams = {} }: UserListProps) {
  const { items, total } = await findUsers(appName, query);
  const listQuery: ListQuery = {
    ...pageParams,
    q: query.q,
    sort: query.sort === 'recent' ? undefined : query.sort,
    size: query.size === DEFAULT_PAGE_SIZE ? undefined : query.size,
  };
  if (items.length === 0 && query.page === 1) {
    return query.q !== undefined ? (
      <EmptyState title="No user matches">No user id of this app contains “{query.q}”.</EmptyState>
    ) : (
      <EmptyState title="No users">This app has app state but no users yet.</EmptyState>
    );
  }
  return (
    <>
      {items.length > 0 ? (
        <UsersTable appName={appName} users={items} sort={query.sort} pathname={pathname} query={listQuery} now={Date.now()} />
      ) : null}
      <Pagination pathname={pathname} query={listQuery} page={query.page} size={query.size} total={total} noun="users" />
    </>
  );
}
