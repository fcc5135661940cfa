// GET /api/apps/{app}/sessions?userId=&q=&stateKey=&stateValue=&limit=&offset= — session search across users.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/sessions');
