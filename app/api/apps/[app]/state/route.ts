// GET|PATCH /api/apps/{app}/state — the app tier, and support edits of it (recorded with actor and reason).
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/state');
