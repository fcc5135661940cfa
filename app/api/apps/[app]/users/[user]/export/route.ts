// GET /api/apps/{app}/users/{user}/export — the user's sessions as JSON Lines of ADK session files.
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { userRefOf, type UserParams } from '@/lib/http/params';
import { exportResponse } from '@/lib/http/session-transfer';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = route<UserParams>(async (_request, params) => {
  const { appName, userId } = userRefOf(params);
  return exportResponse(await getStore(), appName, userId);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
