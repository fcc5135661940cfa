// Test kits' namespaces: marking one as a kit's own, listing the marks (the
// kit's sweep of killed runs), clearing data inside one (reason required, a dry
// run first if asked, recorded in the operations log) and releasing a user
// namespace's mark. Both doors (API routes) call these.
import { z } from 'zod';
import type { SessionStore } from '../session-service/store';
import { testNamespacesOf, type ClearCount, type TestNamespaceMark } from '../session-service/test-namespaces';
import { fieldErrorsOf, idSchema, reasonSchema } from '../validation/schemas';
import { attempt, invalid, type ActionResult } from './result';

/** `@<namespace>`: the ending the kit's user ids share in a shared app; '' marks the whole app. */
const userSuffixSchema = z
  .string({ error: 'must be a string' })
  .max(64, 'must be at most 64 characters')
  .regex(/^(@[A-Za-z0-9_.-]+)?$/, 'must be empty (the whole app) or @ followed by letters, digits, _ . -')
  .default('');

const namespaceInput = z.object({ appName: idSchema, userSuffix: userSuffixSchema });

const markInput = namespaceInput.extend({
  run: z.object({
    id: z.string({ error: 'must be a string' }).min(1).max(128),
    host: z.string({ error: 'must be a string' }).max(255),
    pid: z.number({ error: 'must be a number' }).int().nonnegative(),
  }),
});

const clearInput = z.object({
  appName: idSchema,
  userId: idSchema.optional(),
  reason: reasonSchema,
  dryRun: z.boolean().default(false),
});

export type MarkInput = z.input<typeof markInput>;
export type ClearInput = z.input<typeof clearInput>;

export async function markTestNamespaceCommand(store: SessionStore, actor: string, raw: unknown): Promise<ActionResult<null>> {
  const parsed = markInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { run, ...namespace } = parsed.data;
  return attempt(async () => {
    await testNamespacesOf(store).markTestNamespace(namespace, run, { actor, reason: 'created by a test kit' });
    return null;
  });
}

export function listTestNamespacesCommand(store: SessionStore): Promise<ActionResult<TestNamespaceMark[]>> {
  return attempt(() => testNamespacesOf(store).listTestNamespaces());
}

/** A marked app, or a user of a marked user namespace: cleared for good (or counted, in a dry run), NOT_TEST_NAMESPACE otherwise. */
export async function clearTestDataCommand(store: SessionStore, actor: string, raw: unknown): Promise<ActionResult<ClearCount>> {
  const parsed = clearInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { appName, userId, reason, dryRun } = parsed.data;
  const scope = userId === undefined ? { appName } : { appName, userId };
  return attempt(() => testNamespacesOf(store).clearTestData(scope, { actor, reason, dryRun }));
}

/** Drops a user namespace's mark (its users' clears stay in the log). */
export async function releaseTestNamespaceCommand(store: SessionStore, raw: unknown): Promise<ActionResult<null>> {
  const parsed = namespaceInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  return attempt(async () => {
    await testNamespacesOf(store).releaseTestNamespace(parsed.data);
    return null;
  });
}
