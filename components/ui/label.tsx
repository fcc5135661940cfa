import type { ComponentProps } from 'react';
import { cx } from './cx';

/** A form control's label: small and muted above its control, or beside it (`className="inline"`). */
export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cx('block text-xs font-medium text-muted', className)} {...props} />;
}
