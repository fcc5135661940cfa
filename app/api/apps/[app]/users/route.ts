// GET /api/apps/{app}/users?q=&limit=&offset= — users of an app (with sessions or user state), most recent first.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users');
