// POST /api/apps/{app}/import — sessions into the app, each to the user its file names; a preview unless ?dryRun=false.
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { appNameOf, type AppParams } from '@/lib/http/params';
import { importResponse } from '@/lib/http/session-transfer';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const POST = route<AppParams>(async (request, params, principal) =>
  importResponse(request, await getStore(), { appName: appNameOf(params) }, principal),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
