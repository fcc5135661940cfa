// POST /api/apps/{app}/users/{user}/sessions/{id}/prune — delete the session, one invocation's events, or events before a time; admin only.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/sessions/:id/prune');
