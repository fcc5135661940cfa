// GET /readyz — readiness: Statehouse's database and every served store answer in time (no sign-in).
import { readyz } from '@/lib/http/health';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = readyz;
