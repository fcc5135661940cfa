// GET /api/apps/{app}/export — every session of the app as JSON Lines of ADK session files.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/export');
