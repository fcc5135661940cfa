// POST /api/apps/{app}/prune — delete the app's sessions (or one user's) idle for N days; admin only.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/prune');
