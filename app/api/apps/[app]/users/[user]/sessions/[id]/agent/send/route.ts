// POST /api/apps/{app}/users/{user}/sessions/{id}/agent/send — a message to the session's agent through its ADK API server.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/sessions/:id/agent/send');
