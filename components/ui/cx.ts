import { twMerge } from 'tailwind-merge';

/**
 * Joins the class names that are set, a later class replacing an earlier one
 * of the same kind (`cx('px-3 py-1.5', 'px-2')` is `py-1.5 px-2`): the
 * primitives' way of letting a caller's classes override their own.
 */
export function cx(...classes: (string | false | null | undefined)[]): string {
  return twMerge(classes);
}
