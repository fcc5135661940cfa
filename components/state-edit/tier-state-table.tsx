import { StateTable } from '@/components/state';
import { mayWrite, WRITE_ROLES } from '@/lib/actions/authorize';
import { EditableStateTable, type EditableStateTableProps } from './editable-state-table';

/**
 * A tier's state table for a server-rendered page: with support edits when
 * the signed-in account may make them, read-only (saying which role edits
 * it) when it may not.
 */
export async function TierStateTable({ tier, ...table }: EditableStateTableProps) {
  const write = tier.scope === 'app' ? 'appState' : 'userState';
  if (await mayWrite(write)) return <EditableStateTable tier={tier} {...table} />;
  return <StateTable {...table} description={`${table.description ?? ''} Editing it needs the ${WRITE_ROLES[write]} role.`.trim()} />;
}
