// A name no other test, worker or run can have: parallel workers (and
// parallel CI jobs against one shared deployment) never see each other's
// sessions, and a failed run's leftovers never collide with the next.
import { randomBytes } from 'node:crypto';

/** Ids are at most 128 characters and may not contain `/` or `\`; these stay short and URL-safe. */
export function uniqueNamespace(prefix: string, workerIndex: number): string {
  const clean = prefix.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40) || 'test';
  return `${clean}-w${workerIndex}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** The actor an audited edit names: the test, by file and title, within the API's 128 characters. */
export function actorOf(titlePath: readonly string[]): string {
  const title = `playwright: ${titlePath.join(' › ')}`.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return title.length <= 128 ? title : `${title.slice(0, 127)}…`;
}
