// GET /api/audit — the audit log as JSON or CSV (lib/http/api/audit.ts).
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/audit');
