// DELETE /api/apps/{app}/users/{user}/sessions/{id}/notes/{note} — removes a note (kept in the audit log).
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/sessions/:id/notes/:note');
