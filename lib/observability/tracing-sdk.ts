// The OpenTelemetry SDK: spans exported over OTLP/HTTP to
// OTEL_EXPORTER_OTLP_ENDPOINT. instrumentation.ts imports this only when the endpoint is
// set, so a server without it loads none of it. The exporter reads the
// standard OTEL_EXPORTER_OTLP_* variables itself (headers, timeouts).
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { env } from '../env';

/** Registers the tracer provider for this process, once; undefined when no endpoint is set. */
export function startTracing(): NodeTracerProvider | undefined {
  const { OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME } = env();
  if (!OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': OTEL_SERVICE_NAME ?? 'statehouse' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  return provider;
}
