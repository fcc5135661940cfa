'use client';

import { useRouter, useSearchParams } from 'next/navigation';
import { useId, useState } from 'react';
import { ActionOutcome } from '@/components/actions/action-outcome';
import { useAction } from '@/components/actions/use-action';
import { StoreLink } from '@/components/nav/store-link';
import { Button } from '@/components/ui/button';
import { Form } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { deleteView, renameView, saveView } from '@/lib/actions/saved-views';
import { viewQueryOf } from '@/lib/data/list-params';
import { MAX_VIEW_NAME_LENGTH, type SavedView } from '@/lib/session-service/saved-views';

interface SavedViewsProps {
  /** The list's page, store-less (the links place it in the page's store). */
  pathname: string;
  appName: string;
  /** The user whose list it is; absent for the app's list. */
  userId?: string;
  views: SavedView[];
  /** Whether views can be saved here (a read-only console takes no writes, these included). */
  canSave: boolean;
  headingLevel: 2 | 3;
}

const hrefOf = (pathname: string, query: string) => (query === '' ? pathname : `${pathname}?${query}`);

/** The view's parameters as a tooltip reads them (`key=topic op=contains value=refu`). */
function describe(query: string): string {
  const params = [...new URLSearchParams(query)].map(([name, value]) => `${name}=${value}`);
  return params.length === 0 ? 'No filters, default sort' : params.join(' ');
}

/**
 * The signed-in account's saved views of this list: each a link that applies
 * its filters and sort in one click, the current one marked; the list's
 * current query saved under a name; views renamed and deleted.
 */
export function SavedViews({ pathname, appName, userId, views, canSave, headingLevel }: SavedViewsProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const current = viewQueryOf(useSearchParams().toString());
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mb-3 space-y-2 text-sm">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <Heading id={headingId} className="text-xs font-medium uppercase tracking-wide text-muted">
          Saved views
        </Heading>
        {views.length === 0 ? (
          <span className="text-xs text-muted">none yet{canSave ? ': filter or sort the list, then save it under a name' : ''}</span>
        ) : (
          <ul aria-label="Your saved views" className="flex flex-wrap gap-2">
            {views.map((view) => (
              <li key={view.id}>
                <StoreLink
                  href={hrefOf(pathname, view.query)}
                  aria-current={view.query === current ? 'page' : undefined}
                  title={describe(view.query)}
                  className="rounded-full border border-border px-2.5 py-0.5 hover:border-border-strong aria-[current=page]:border-accent aria-[current=page]:bg-accent aria-[current=page]:text-accent-foreground"
                >
                  {view.name}
                </StoreLink>
              </li>
            ))}
          </ul>
        )}
      </div>
      {canSave ? <SaveViewForm appName={appName} userId={userId} query={current} /> : null}
      {canSave && views.length > 0 ? (
        <details className="text-xs">
          <summary className="cursor-pointer text-muted">Rename or delete views</summary>
          <ul aria-label="Manage saved views" className="mt-2 space-y-2">
            {views.map((view) => (
              <ManagedView key={`${view.id}:${view.name}`} view={view} />
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}

function SaveViewForm({ appName, userId, query }: { appName: string; userId?: string; query: string }) {
  const router = useRouter();
  const id = useId();
  const [name, setName] = useState('');
  const { pending, failure, run, fieldError, data } = useAction(saveView);
  return (
    <Form
      aria-label="Save this view"
      className="flex flex-wrap items-end gap-2"
      onSubmit={() => {
        run({ appName, userId, name, query }, () => {
          setName('');
          router.refresh();
        });
      }}
    >
      <div>
        <Label htmlFor={`${id}-name`}>Save this view as</Label>
        <Input
          id={`${id}-name`}
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={MAX_VIEW_NAME_LENGTH}
          invalid={fieldError('name') !== null}
          placeholder="e.g. Refunds with errors"
          className="block w-56"
        />
      </div>
      <Button type="submit" variant="secondary" disabled={pending || name.trim() === ''}>
        {pending ? 'Saving…' : 'Save view'}
      </Button>
      <ActionOutcome failure={failure} done={data && !pending && !failure ? `Saved “${data.name}”.` : null} />
    </Form>
  );
}

function ManagedView({ view }: { view: SavedView }) {
  const router = useRouter();
  const id = useId();
  const [name, setName] = useState(view.name);
  const renaming = useAction(renameView);
  const deleting = useAction(deleteView);
  const refresh = () => router.refresh();
  return (
    <li className="flex flex-wrap items-end gap-2">
      <Form
        aria-label={`Rename the view ${view.name}`}
        className="flex flex-wrap items-end gap-2"
        onSubmit={() => {
          renaming.run({ id: view.id, name }, refresh);
        }}
      >
        <div>
          <Label htmlFor={`${id}-name`}>Name of “{view.name}”</Label>
          <Input
            id={`${id}-name`}
            value={name}
            onChange={(event) => setName(event.target.value)}
            maxLength={MAX_VIEW_NAME_LENGTH}
            invalid={renaming.fieldError('name') !== null}
            className="block w-56"
          />
        </div>
        <Button type="submit" size="xs" disabled={renaming.pending || name.trim() === '' || name.trim() === view.name}>
          Rename
        </Button>
      </Form>
      <Button
        size="xs"
        variant="danger"
        aria-label={`Delete the view ${view.name}`}
        disabled={deleting.pending}
        onClick={() => deleting.run({ id: view.id }, refresh)}
      >
        Delete
      </Button>
      <ActionOutcome failure={renaming.failure ?? deleting.failure} />
    </li>
  );
}
