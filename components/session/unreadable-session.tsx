import { Breadcrumbs, trailTo } from '@/components/nav/breadcrumbs';
import { UnreadablePanel } from '@/components/page-status/unreadable-panel';
import type { SessionRef } from '@/lib/session-service/store';

/** A session page whose own row, or a shared tier its state needs, cannot be read: why, so the operator can fix the row. */
export function UnreadableSession({ session, detail }: { session: SessionRef; detail: string }) {
  return (
    <div>
      <Breadcrumbs trail={trailTo(session)} />
      <div className="mx-auto max-w-xl">
        <UnreadablePanel title={`Session ${session.sessionId} cannot be read`} detail={detail} />
      </div>
    </div>
  );
}
