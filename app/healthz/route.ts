// GET /healthz — liveness: the process answers (no database, no sign-in).
import { healthz } from '@/lib/http/health';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = healthz;
