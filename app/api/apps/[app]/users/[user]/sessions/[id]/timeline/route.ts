// GET /api/apps/{app}/users/{user}/sessions/{id}/timeline — events oldest first, each with the state changes it caused.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/sessions/:id/timeline');
