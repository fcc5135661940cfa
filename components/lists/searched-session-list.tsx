import { Suspense, type ComponentProps } from 'react';
import { SessionList, sessionListParams } from './session-list';
import { SessionSearchForm } from './session-search-form';
import { TableSkeleton } from './skeleton';

type SearchedSessionListProps = Omit<ComponentProps<typeof SessionList>, 'pageParams'> & {
  /** Examples in the first filter's fields, of keys this list's sessions have. */
  placeholders: { key: string; value: string };
};

/** The sessions' search form (a search keeps the list's sort and page size), then the list, streamed in. */
export function SearchedSessionList({ placeholders, ...list }: SearchedSessionListProps) {
  const { sort, size } = sessionListParams(list.query);
  return (
    <>
      <SessionSearchForm
        pathname={list.pathname}
        query={list.query}
        keep={{ sort: sort?.toString(), size: size?.toString() }}
        placeholders={placeholders}
      />
      {/* The user's list has no user column. */}
      <Suspense fallback={<TableSkeleton label="Loading sessions" columns={list.userId === undefined ? 5 : 4} />}>
        <SessionList {...list} />
      </Suspense>
    </>
  );
}
