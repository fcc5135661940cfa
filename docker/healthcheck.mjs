// The container's HEALTHCHECK: the server on this container's PORT answers
// /healthz within 4 seconds (exit 0), or not (exit 1). Liveness only: a
// database outage is /readyz's business and must not get the container restarted.
const port = process.env.PORT || '3000';
try {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4_000) });
  if (!response.ok) throw new Error(`/healthz answered ${response.status}`);
  process.exit(0);
} catch (error) {
  console.error(`unhealthy: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
