// GET /api/search — the header search over every app, user, session id, title, label and state value.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/search');
