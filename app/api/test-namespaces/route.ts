// /api/test-namespaces — test kits' namespaces: marked as a kit's own (POST), listed (GET), released (DELETE).
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/test-namespaces');
