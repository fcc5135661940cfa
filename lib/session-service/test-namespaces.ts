// Namespaces a test kit created (the Playwright kit's apps and users), and the
// only data clearing may remove: a namespace is marked before the kit writes
// into it, a clear names the test and why, and what a killed run left behind
// is found by its marks. Clearing anything unmarked is refused.
import { SessionServiceError } from './errors';
import type { Audit } from './operations';
import type { DataScope } from './store';

/**
 * A whole app (`userSuffix` ''), or the users of an app whose ids end with
 * `userSuffix` (`@<namespace>`, the kit's user mode).
 */
export interface TestNamespace {
  appName: string;
  userSuffix: string;
}

/** The run that created a namespace: a sweep at the next start clears it once the run is gone. */
export interface TestRun {
  id: string;
  host: string;
  pid: number;
}

export interface TestNamespaceMark extends TestNamespace {
  run: TestRun;
  /** Who marked it (the test, `playwright: <file> › <title>`). */
  actor: string;
  /** Seconds since the epoch. */
  time: number;
}

/** What a clear removes (or would, in a dry run). */
export interface ClearCount {
  sessions: number;
  events: number;
  /** App and user state keys. */
  stateKeys: number;
}

export interface TestNamespaceStore {
  markTestNamespace(namespace: TestNamespace, run: TestRun, audit: Audit): Promise<void>;
  /** Every mark, or one app's. */
  listTestNamespaces(appName?: string): Promise<TestNamespaceMark[]>;
  /**
   * Clears a marked app, or one user of a marked user namespace, recording it
   * in the operations log; a dry run counts and changes nothing. NOT_TEST_NAMESPACE
   * when the scope lies in no mark.
   */
  clearTestData(scope: DataScope, options: Audit & { reason: string; dryRun: boolean }): Promise<ClearCount>;
  /** Removes a user namespace's mark once its users are cleared (an app's mark goes with the app's data). */
  releaseTestNamespace(namespace: TestNamespace): Promise<void>;
}

/** True when `scope` lies inside `mark`: the marked app itself, or a user of a marked user namespace. */
export function scopeInMark(scope: DataScope, mark: TestNamespace): boolean {
  if (scope.appName !== mark.appName) return false;
  if (mark.userSuffix === '') return true;
  return scope.userId !== undefined && scope.userId.endsWith(mark.userSuffix) && scope.userId.length > mark.userSuffix.length;
}

export const notTestNamespace = (scope: DataScope) =>
  new SessionServiceError(
    'NOT_TEST_NAMESPACE',
    scope.userId === undefined
      ? `App ${scope.appName} was not created by a test kit: only namespaces a kit marked as its own can be cleared.`
      : `User ${scope.userId} of app ${scope.appName} is in no namespace a test kit marked as its own: it cannot be cleared.`,
  );

/** The store's test namespace operations, or UNSUPPORTED (agents' ADK stores have none). */
export function testNamespacesOf(store: object): TestNamespaceStore {
  const candidate = (store as { testNamespaces?: TestNamespaceStore }).testNamespaces;
  if (!candidate) throw new SessionServiceError('UNSUPPORTED', 'This session store does not support test namespaces.');
  return candidate;
}
