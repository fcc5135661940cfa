/** Joins the class names that are set; the primitives' way of adding a caller's classes to their own. */
export function cx(...classes: (string | false | null | undefined)[]): string {
  return classes.filter(Boolean).join(' ');
}
