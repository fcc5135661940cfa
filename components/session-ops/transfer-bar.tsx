import { StoreAnchor } from '@/components/nav/store-link';
import { buttonClass } from '@/components/ui/button';
import { IdlePrune } from './prune-form';
import { ImportForm } from './import-form';

/** Export, import and (for admins) retention over an app's or a user's sessions; only what the role allows. */
export function TransferBar({
  appName,
  userId,
  exportHref,
  canOperate,
  canPrune,
}: {
  appName: string;
  userId?: string;
  exportHref: string;
  canOperate: boolean;
  canPrune: boolean;
}) {
  if (!canOperate && !canPrune) return null;
  return (
    <div className="mb-4 flex flex-wrap items-start gap-2" role="group" aria-label="Sessions transfer">
      {canOperate ? (
        <StoreAnchor className={buttonClass()} href={exportHref} download>
          Export sessions (JSON Lines)
        </StoreAnchor>
      ) : null}
      {canOperate ? <ImportForm appName={appName} {...(userId === undefined ? {} : { userId })} /> : null}
      {canPrune && userId === undefined ? <IdlePrune appName={appName} /> : null}
    </div>
  );
}
