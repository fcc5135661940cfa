// GET /api/apps/{app}/export — every session of the app as JSON Lines of ADK session files.
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { appNameOf, type AppParams } from '@/lib/http/params';
import { exportResponse } from '@/lib/http/session-transfer';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = route<AppParams>(async (_request, params) => exportResponse(await getStore(), appNameOf(params)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
