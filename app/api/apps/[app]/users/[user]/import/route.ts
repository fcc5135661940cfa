// POST /api/apps/{app}/users/{user}/import — sessions into this user, whatever user the file names; a preview unless ?dryRun=false.
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { userRefOf, type UserParams } from '@/lib/http/params';
import { importResponse } from '@/lib/http/session-transfer';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const POST = route<UserParams>(async (request, params, principal) =>
  importResponse(request, await getStore(), userRefOf(params), principal),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
