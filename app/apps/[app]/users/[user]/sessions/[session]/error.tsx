'use client';

import { LoadError } from '@/components/page-status/load-error';

export default function SessionError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <LoadError error={error} retry={retry} title="The session could not be loaded">
      Reading this session’s state and events from the database failed. The database may be unreachable, locked by another process, or not
      migrated.
    </LoadError>
  );
}
