// GET /api/apps/{app}/history?scope=app|user|session&userId=&sessionId=&key=&limit=&offset= — one key's history, newest first.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/history');
