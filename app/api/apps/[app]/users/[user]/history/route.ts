// GET /api/apps/{app}/users/{user}/history?since=&limit=&offset= — every user-tier change of one user, newest first.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/history');
