// GET|PATCH /api/apps/{app}/users/{user}/sessions/{id}/meta — Statehouse's own fields of a session (title, labels, fork links).
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/sessions/:id/meta');
