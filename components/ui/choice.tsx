import type { ComponentProps, ReactNode } from 'react';
import { cx } from './cx';

type ChoiceProps = Omit<ComponentProps<'input'>, 'type'> & {
  type: 'checkbox' | 'radio';
  /** The text beside the box; it is the input's label, so a click on it toggles the box. */
  children: ReactNode;
  /** The label's classes (the input's own stay the browser's). */
  labelClassName?: string;
};

/** A checkbox or radio button with its label beside it. */
export function Choice({ children, labelClassName, className, ...props }: ChoiceProps) {
  return (
    <label className={cx('flex items-center gap-2 text-sm', labelClassName)}>
      <input className={className} {...props} />
      {children}
    </label>
  );
}
