// GET /metrics — Prometheus text, for the bearer of STATEHOUSE_METRICS_TOKEN (lib/http/metrics.ts).
import { metrics } from '@/lib/http/metrics';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = metrics;
