// GET /api/apps — the dashboard's app summaries.
import { plainRoute, sessionService } from '@/lib/http/handler';
import { json } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = plainRoute(async () => json({ items: await (await sessionService()).listApps() }));
