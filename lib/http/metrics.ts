// GET /metrics on the server's own port: Prometheus text for a bearer of
// STATEHOUSE_METRICS_TOKEN; 404 when no token is configured (off, or only
// on the separate listen address), 401 for any other caller.
import type { ApiRequest } from './api-request';
import { carriesMetricsToken } from '../observability/exposition';
import { metricsText } from '../observability/metrics';
import { env } from '../env';
import { detailResponse } from './respond';

export async function metrics(request: ApiRequest): Promise<Response> {
  if (!env().STATEHOUSE_METRICS_TOKEN) return detailResponse(404, 'Not Found');
  if (!carriesMetricsToken(request.headers.get('authorization'))) {
    return detailResponse(401, 'Metrics need the metrics token: Authorization: Bearer <STATEHOUSE_METRICS_TOKEN>.', {
      'WWW-Authenticate': 'Bearer realm="statehouse-metrics"',
    });
  }
  const { contentType, body } = await metricsText();
  return new Response(body, { headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } });
}
