// Which key a person means when adding one to the app or a user's tier. Pure:
// the edit dialog checks the same rules as it is typed, the command again.
import { keyProblem } from './json-text';

export type TierKey = { ok: true; key: string; note: string | null } | { ok: false; message: string };

const PREFIXED = /^(app|user|temp):/;

/** Why a key typed with another tier's prefix cannot be added here. */
function foreignPrefixProblem(scope: 'app' | 'user', typed: string): string {
  if (typed === scope) return `“${scope}:” is typed twice: the key would read as ${scope}:${scope}:…; type it once.`;
  if (typed === 'temp') return '“temp:” keys last one invocation and are never stored: leave out “temp:” to store the key.';
  if (typed === 'app') return '“app:” keys are app state, shared by every user: add them on the app’s page.';
  return '“user:” keys belong to one user: add them on that user’s page.';
}

/**
 * The key a person means when adding to a tier: surrounding spaces dropped,
 * the tier's own prefix dropped (staff copy keys from what the agent sees,
 * `user:plan`), and another tier's prefix refused, since `user:app:x` or
 * `user:temp:x` is never what anyone wants. `note` says what was changed.
 */
export function tierKey(scope: 'app' | 'user', typed: string): TierKey {
  const notes: string[] = [];
  let key = typed.trim();
  if (key !== typed) notes.push('spaces around it removed');
  const own = `${scope}:`;
  if (key.startsWith(own)) {
    key = key.slice(own.length);
    notes.push(`“${own}” is this tier’s prefix, not part of the key`);
  }
  const other = PREFIXED.exec(key)?.[1];
  if (other) return { ok: false, message: foreignPrefixProblem(scope, other) };
  const problem = keyProblem(key);
  if (problem) return { ok: false, message: problem };
  return { ok: true, key, note: notes.length > 0 ? `Saved as ${own}${key}: ${notes.join('; ')}.` : null };
}
