import { StoreLink } from '@/components/nav/store-link';
import { buttonClass } from '@/components/ui/button';
import { comparePath, type CompareSide } from '@/lib/paths';

/** "Compare with…": to the compare page with this session (or user) as the first side, the second to choose there. */
export function CompareLink({ side, label = 'Compare with…' }: { side: CompareSide; label?: string }) {
  return (
    <StoreLink href={comparePath(side)} prefetch={false} className={buttonClass({ variant: 'secondary', size: 'xs' })}>
      {label}
    </StoreLink>
  );
}
