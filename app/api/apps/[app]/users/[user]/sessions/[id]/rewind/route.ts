// POST /api/apps/{app}/users/{user}/sessions/{id}/rewind — adk-python's Runner.rewind_async over HTTP.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/sessions/:id/rewind');
