// ADK: POST|GET|PATCH|DELETE /api/apps/{app}/users/{user}/sessions/{id}.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/sessions/:id');
