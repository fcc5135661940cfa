// POST /api/apps/{app}/users/{user}/sessions/{id}/fork — a new session of the same user from events 1..atSeq.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/sessions/:id/fork');
