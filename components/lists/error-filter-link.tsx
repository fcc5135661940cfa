import Link from 'next/link';
import { listHref, type ListQuery } from './href';

/** Turns the "sessions with an error event" filter on or off, back to page 1, as a plain link. */
export function ErrorFilterLink({ pathname, query, on }: { pathname: string; query: ListQuery; on: boolean }) {
  return (
    <p className="mb-2 text-sm">
      <Link href={listHref(pathname, query, { errors: on ? undefined : '1', page: undefined })} className="text-accent hover:underline">
        {on ? 'Show every session' : 'Only sessions with an error event'}
      </Link>
    </p>
  );
}
