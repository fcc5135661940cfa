// GET|POST /api/apps/{app}/users/{user}/sessions/{id}/notes — notes on a session (Statehouse's own database).
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/sessions/:id/notes');
