// ADK: GET|POST /api/apps/{app}/users/{user}/sessions — list a user's sessions; create one (optionally with events).
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/sessions');
