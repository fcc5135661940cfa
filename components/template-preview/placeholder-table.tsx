import { JsonInline } from '@/components/history/json-inline';
import type { Placeholder } from '@/lib/session-service/template';
import { STATUS_STYLE, STATUS_TEXT } from './status';

function note(placeholder: Placeholder): string | null {
  if (placeholder.error) return placeholder.error;
  if (placeholder.status === 'verbatim')
    return 'Not a valid state name (an identifier, or app:/user:/temp: and an identifier): ADK leaves it as written.';
  if (placeholder.status === 'optional-missing') return 'Optional (?): inserts nothing when the key is missing.';
  return null;
}

const COLUMNS = ['Placeholder', 'Outcome', 'Tier', 'Value', 'ADK says'];

/** Every placeholder of the template in order: what it names, what happened, the value and tier it resolved to. */
export function PlaceholderTable({ placeholders }: { placeholders: Placeholder[] }) {
  if (placeholders.length === 0) return <p className="text-xs text-muted">No placeholders: the instruction is used as written.</p>;
  return (
    <div className="overflow-x-auto rounded-md border border-border">
      <table className="w-full text-left text-xs">
        <caption className="sr-only">Placeholders</caption>
        <thead className="bg-surface-muted text-[11px] uppercase tracking-wide text-muted">
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className="px-2 py-1.5 font-medium">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {placeholders.map((placeholder, index) => (
            <tr key={index} data-status={placeholder.status}>
              <td className="px-2 py-1.5">
                <code className="break-all">{placeholder.raw}</code>
              </td>
              <td className="px-2 py-1.5">
                <span className={`whitespace-nowrap rounded border px-1 font-semibold ${STATUS_STYLE[placeholder.status]}`}>
                  {STATUS_TEXT[placeholder.status]}
                </span>
              </td>
              <td className="px-2 py-1.5 text-muted">{placeholder.scope ?? (placeholder.artifactName !== undefined ? 'artifact' : '—')}</td>
              <td className="px-2 py-1.5">
                {placeholder.value === undefined ? <span className="text-muted">—</span> : <JsonInline value={placeholder.value} />}
              </td>
              <td className="px-2 py-1.5">
                {note(placeholder) ? (
                  <span className={placeholder.error ? 'font-medium text-danger' : 'text-muted'}>{note(placeholder)}</span>
                ) : null}
                {placeholder.portNote ? <p className="mt-0.5 text-warning">{placeholder.portNote}</p> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
