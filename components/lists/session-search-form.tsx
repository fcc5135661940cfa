import { SearchForm, type SearchField } from './search-form';
import { FILTER_SLOTS, filterParamNames, type SessionListQuery } from '@/lib/data/list-params';
import { OPERATOR_LABELS, STATE_OPERATORS } from '@/lib/session-service/state-filter';

interface SessionSearchFormProps {
  pathname: string;
  query: SessionListQuery;
  /** Sort and page size, kept when the search changes. */
  keep: Record<string, string | undefined>;
  placeholders: { key: string; value: string };
}

const OPERATOR_OPTIONS = [
  { value: '', label: 'contains or equals' },
  ...STATE_OPERATORS.map((op) => ({ value: op, label: OPERATOR_LABELS[op] })),
];

/**
 * Sessions by id and by state filters (a key of any tier, a path into its
 * value, an operator, a value): the same search on the app and the user
 * page. One more filter row appears once the last one is used.
 */
export function SessionSearchForm({ pathname, query, keep, placeholders }: SessionSearchFormProps) {
  const rows = Math.min(FILTER_SLOTS, query.filters.length + 1);
  const filterFields: SearchField[] = [];
  for (let index = 0; index < rows; index += 1) {
    const names = filterParamNames(index);
    const filter = query.filters[index];
    const n = index === 0 ? '' : ` ${index + 1}`;
    filterFields.push(
      { name: names.key, label: `State key${n}`, value: filter?.key, placeholder: index === 0 ? placeholders.key : undefined, code: true },
      // A key alone reads as `exists`; shown as the default instead, so a value typed next to it is searched for.
      {
        name: names.op,
        label: `Operator${n}`,
        value: filter?.op === 'exists' ? '' : (filter?.op ?? ''),
        options: OPERATOR_OPTIONS,
        narrow: true,
      },
      {
        name: names.value,
        label: `Value${n}`,
        value: filter?.value ?? (index === 0 && query.filters.length === 0 ? query.value : undefined),
        placeholder: index === 0 ? placeholders.value : undefined,
        code: true,
      },
    );
  }
  return (
    <SearchForm
      label="Search sessions"
      pathname={pathname}
      keep={keep}
      fields={[{ name: 'q', label: 'Session id contains', value: query.q, code: true }, ...filterFields]}
      hint="Keys as the agent sees them (app:, user: or no prefix), with a .path into the value (profile.email). Text is found inside a value, case-insensitively; JSON is compared whole. A value with no key matches any key."
    />
  );
}
