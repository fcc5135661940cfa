import { panelClass } from '@/components/ui/panel';

/** A session page whose own row cannot be read: why, so the operator can fix the row; every other page still reads. */
export function UnreadableSession({ sessionId, detail }: { sessionId: string; detail: string }) {
  return (
    <div role="alert" className={panelClass({ tone: 'danger', className: 'mx-auto max-w-xl px-6 py-8' })}>
      <p className="font-mono text-sm text-muted">422</p>
      <h1 className="mt-1 break-all text-lg font-semibold text-danger">Session {sessionId} cannot be read</h1>
      <p className="mt-2 break-words text-sm">{detail}</p>
    </div>
  );
}
