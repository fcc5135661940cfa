// GET /api/apps/{app}/users/{user}/state/value — the whole of a user-tier value shown cut (lib/data/value-cut.ts).
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/state/value');
