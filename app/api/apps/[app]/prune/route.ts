// POST /api/apps/{app}/prune — delete the app's sessions (or one user's) idle for N days. Admin only;
// a dry run (the default) counts and deletes nothing.
import { readJson } from '@/lib/http/body';
import { route } from '@/lib/http/handler';
import { parseWith } from '@/lib/http/issues';
import { otherMethods } from '@/lib/http/methods';
import { appNameOf, type AppParams } from '@/lib/http/params';
import { json } from '@/lib/http/respond';
import { getStore } from '@/lib/services';
import { capability } from '@/lib/session-service/operations';
import { idlePruneInput, pruneOptions } from '@/lib/validation/session-ops';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Body `{"idleDays": N, "userId"?, "dryRun": true | false, "reason"}`; answers `{"dryRun", "sessions", "events"}`. */
export const POST = route<AppParams>(async (request, params, principal) => {
  const appName = appNameOf(params);
  const raw = (await readJson(request)) ?? null;
  const input = parseWith(idlePruneInput, raw);
  const options = parseWith(pruneOptions, raw);
  const count = await capability(await getStore(), 'prune')(
    { kind: 'idleSessions', appName, idleDays: input.idleDays, ...(input.userId === undefined ? {} : { userId: input.userId }) },
    { actor: principal.name, ...options },
  );
  return json({ dryRun: options.dryRun, ...count });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
