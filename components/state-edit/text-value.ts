/**
 * Text someone meant as a string: not JSON, and not the start of an object,
 * array or string. A version (`2.5.0`), a date (`2026-11-25`) or a phone
 * number (`+1 555 0100`, `555-0100`) starts like a number but is not one.
 */
export function looksLikeText(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '' || /^[[{"]/.test(trimmed)) return false;
  try {
    JSON.parse(trimmed);
    return false;
  } catch {
    return true;
  }
}
