// GET /api/apps/{app}/users/{user}/sessions/{id}/agent/sends — the messages sent to the session's agent from the console.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/sessions/:id/agent/sends');
