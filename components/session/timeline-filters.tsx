'use client';

import { useState, type FormEvent } from 'react';
import { hasFilters, NO_FILTERS, type NormalFilters } from '@/lib/queries/session';
import { Input } from '@/components/ui/input';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Choice } from '@/components/ui/choice';

interface TimelineFiltersProps {
  filters: NormalFilters;
  onFilters: (filters: Partial<NormalFilters>) => void;
}

type TextFilter = 'text' | 'author' | 'invocationId' | 'key' | 'tool';

const FIELDS: { name: TextFilter; label: string; placeholder: string }[] = [
  { name: 'text', label: 'Text', placeholder: 'words, a tool, an error…' },
  { name: 'author', label: 'Author', placeholder: 'user, an agent…' },
  { name: 'invocationId', label: 'Invocation', placeholder: 'e-…' },
  { name: 'key', label: 'Touched key', placeholder: 'user:plan, app:tone, topic' },
  { name: 'tool', label: 'Tool', placeholder: 'a tool call’s name' },
];

/** Text, author, invocation, touched-key, tool and error filters; applied on submit, kept in the URL (a time range too, from the URL). */
export function TimelineFilters({ filters, onFilters }: TimelineFiltersProps) {
  // Re-keyed by the applied filters so the fields follow filters set elsewhere (chips in the rows, back button).
  return <FilterForm key={JSON.stringify(filters)} filters={filters} onFilters={onFilters} />;
}

function FilterForm({ filters, onFilters }: TimelineFiltersProps) {
  const [draft, setDraft] = useState(filters);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onFilters({
      author: draft.author?.trim() || null,
      invocationId: draft.invocationId?.trim() || null,
      key: draft.key?.trim() || null,
      text: draft.text?.trim() || null,
      tool: draft.tool?.trim() || null,
      errors: draft.errors,
    });
  };
  return (
    <form role="search" aria-label="Filter events" onSubmit={submit} className="flex flex-wrap items-end gap-2">
      {FIELDS.map((field) => (
        <Label key={field.name} className="flex min-w-40 flex-1 flex-col gap-1">
          {field.label}
          <Input
            type="search"
            name={field.name}
            value={draft[field.name] ?? ''}
            onChange={(event) => setDraft({ ...draft, [field.name]: event.target.value })}
            placeholder={field.placeholder}
            className="px-2 py-1 font-mono text-sm"
          />
        </Label>
      ))}
      <Choice
        type="checkbox"
        name="errors"
        checked={draft.errors}
        onChange={(event) => setDraft({ ...draft, errors: event.target.checked })}
        labelClassName="gap-1.5 pb-1.5"
      >
        Errors only
      </Choice>
      <Button type="submit" variant="primary">
        Filter
      </Button>
      {hasFilters(filters) ? (
        <Button type="button" onClick={() => onFilters(NO_FILTERS)} variant="secondary">
          Clear filters
        </Button>
      ) : null}
    </form>
  );
}
