// Runs once when the server process starts (Next's instrumentation hook).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // This process is the console's own: env() may count writes instead of comparing every variable per call.
  const { watchEnvironmentWrites } = await import('./lib/env');
  watchEnvironmentWrites();
  // The heap kept near what is alive, not twice that (lib/heap-growth.ts says why).
  const { boundHeapGrowth } = await import('./lib/heap-growth');
  boundHeapGrowth();
  // Traces first, so the provider is registered before anything makes a span.
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { startTracing } = await import('./lib/observability/tracing-sdk');
    startTracing();
  }
  // The door refuses what must not reach Next at all (lib/http/door.ts says why).
  const { installDoor } = await import('./lib/http/door');
  installDoor();
  // Metrics on a separate address, when the operator chose one (lib/observability/exposition.ts).
  const { startMetricsListener } = await import('./lib/observability/exposition');
  await startMetricsListener();
}
