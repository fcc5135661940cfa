/** Counts as people read them: 100,000. */
export function formatCount(count: number): string {
  return count.toLocaleString('en');
}

/** "1 session", "2 sessions". */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${formatCount(count)} ${count === 1 ? noun : pluralNoun}`;
}
