// GET /api/apps/{app}/users/{user}/sessions/{id}/value — the whole of a value the session page showed cut (lib/data/value-cut.ts).
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/sessions/:id/value');
