'use client';

import { useStoreRouter } from '@/components/nav/store-link';
import { useTransition, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { panelClass } from '@/components/ui/panel';
import { cx } from '@/components/ui/cx';
import { Input, Select } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

export interface SearchField {
  /** The query parameter. */
  name: string;
  label: string;
  placeholder?: string;
  value?: string;
  /** Monospace input for ids and keys. */
  code?: boolean;
  /** A choice instead of text: the values and their labels, the first the default. */
  options?: { value: string; label: string }[];
  /** Narrow (an operator beside a key and a value). */
  narrow?: boolean;
}

interface SearchFormProps {
  /** Names the form for assistive technology: "Search sessions". */
  label: string;
  pathname: string;
  fields: SearchField[];
  /** Parameters the search keeps (tab, sort, page size); the page number always resets. */
  keep?: Record<string, string | undefined>;
  hint?: string;
}

function hrefOf(pathname: string, entries: Iterable<[string, string]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of entries) if (value.trim() !== '') params.set(name, value.trim());
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
}

/**
 * A GET form over the list's URL: the search lands in the query string, so
 * every search is a link that can be shared. With JavaScript it navigates
 * in a transition (the current results stay until the new ones arrive);
 * without, the browser submits it as an ordinary form.
 */
export function SearchForm({ label, pathname, fields, keep = {}, hint }: SearchFormProps) {
  const router = useStoreRouter();
  const [pending, startTransition] = useTransition();
  const kept = Object.entries(keep).filter((entry): entry is [string, string] => entry[1] !== undefined);
  const active = fields.some((field) => field.value && !field.options);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const entries = [...data.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    startTransition(() => router.push(hrefOf(pathname, entries)));
  }

  return (
    <form
      // A new URL (a link, Back, Clear) brings new values: start the inputs over from them.
      key={fields.map((field) => field.value ?? '').join('\u0000')}
      role="search"
      aria-label={label}
      action={pathname}
      method="get"
      onSubmit={submit}
      aria-busy={pending || undefined}
      className={panelClass({ className: 'mb-3 p-3' })}
    >
      {kept.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="flex flex-wrap items-end gap-3">
        {fields.map((field) => (
          <Label key={field.name} className={cx('flex flex-col gap-1', field.narrow ? 'w-36' : 'min-w-40 flex-1')}>
            {field.label}
            {field.options ? (
              <Select
                name={field.name}
                defaultValue={field.value ?? field.options[0]?.value}
                className="border-border-strong py-1.5 font-normal"
              >
                {field.options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </Select>
            ) : (
              <Input
                type="search"
                name={field.name}
                defaultValue={field.value ?? ''}
                placeholder={field.placeholder}
                autoComplete="off"
                spellCheck={false}
                className={cx('border-border-strong px-2.5 py-1.5 font-normal placeholder:text-muted/70', field.code && 'font-mono')}
              />
            )}
          </Label>
        ))}
        <div className="flex items-center gap-2">
          <Button type="submit" variant="primary">
            Search
          </Button>
          {active ? (
            <Button type="button" onClick={() => startTransition(() => router.push(hrefOf(pathname, kept)))} variant="secondary">
              Clear
            </Button>
          ) : null}
        </div>
      </div>
      <p className="mt-2 text-xs text-muted empty:mt-0" aria-live="polite">
        {pending ? 'Searching…' : hint}
      </p>
    </form>
  );
}
