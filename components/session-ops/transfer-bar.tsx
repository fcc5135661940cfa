import { StoreAnchor } from '@/components/nav/store-link';
import { buttonClass } from '@/components/ui/button';
import type { OperationRefusals } from '@/lib/data/session-ops';
import { IdlePrune } from './prune-form';
import { ImportForm } from './import-form';

/** Export, import and (for admins) retention over an app's or a user's sessions; only what the role allows. */
export function TransferBar({
  appName,
  userId,
  exportHref,
  canOperate,
  canPrune,
  refusals = {},
}: {
  appName: string;
  userId?: string;
  exportHref: string;
  canOperate: boolean;
  canPrune: boolean;
  /** What the store refuses, and why: those forms are not offered, and the reasons are said instead. */
  refusals?: OperationRefusals;
}) {
  if (!canOperate && !canPrune) return null;
  const notOffered = [
    ...(canOperate && refusals.import ? [`Import: ${refusals.import}`] : []),
    ...(canPrune && userId === undefined && refusals.prune ? [`Delete idle sessions: ${refusals.prune}`] : []),
  ];
  return (
    <div className="mb-4 flex flex-wrap items-start gap-2" role="group" aria-label="Sessions transfer">
      {canOperate ? (
        <StoreAnchor className={buttonClass()} href={exportHref} download>
          Export sessions (JSON Lines)
        </StoreAnchor>
      ) : null}
      {canOperate && refusals.import === undefined ? <ImportForm appName={appName} {...(userId === undefined ? {} : { userId })} /> : null}
      {canPrune && userId === undefined && refusals.prune === undefined ? <IdlePrune appName={appName} /> : null}
      {notOffered.length > 0 ? (
        <ul aria-label="Not offered on this store" className="w-full text-sm text-muted">
          {notOffered.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
