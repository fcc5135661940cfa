import { SearchForm } from './search-form';
import type { SessionListQuery } from '@/lib/data/list-params';

interface SessionSearchFormProps {
  pathname: string;
  query: SessionListQuery;
  /** Sort and page size, kept when the search changes. */
  keep: Record<string, string | undefined>;
  placeholders: { key: string; value: string };
}

/** Sessions by id, by state key, or by key and value: the same search on the app and the user page. */
export function SessionSearchForm({ pathname, query, keep, placeholders }: SessionSearchFormProps) {
  return (
    <SearchForm
      label="Search sessions"
      pathname={pathname}
      keep={keep}
      fields={[
        { name: 'q', label: 'Session id contains', value: query.q, code: true },
        { name: 'key', label: 'State key', value: query.key, placeholder: placeholders.key, code: true },
        { name: 'value', label: 'State value', value: query.value, placeholder: placeholders.value, code: true },
      ]}
      hint="Keys as the agent sees them: app:, user: or no prefix. A value is JSON, or plain text for a string; alone, it matches any key."
    />
  );
}
