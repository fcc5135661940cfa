// Spans of Statehouse's own work (API requests, store calls), through the
// OpenTelemetry API: without a registered provider (tracing-sdk.ts, loaded
// only when an OTLP endpoint is set) every span here is a no-op.
import { INVALID_SPAN_CONTEXT, ProxyTracerProvider, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { env } from '../env';

const tracer = trace.getTracer('statehouse');

/** Whether spans are exported (OTEL_EXPORTER_OTLP_ENDPOINT is set). */
export function tracingEnabled(): boolean {
  return Boolean(env().OTEL_EXPORTER_OTLP_ENDPOINT);
}

/** What `fn` gets when nothing records spans: every method a no-op. */
const NOT_RECORDED: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Whether a tracer provider is registered (tracing-sdk.ts); without one a span records nothing. */
function tracerRegistered(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer('statehouse') !== undefined;
}

/**
 * Runs `fn` inside a span named `name`; a thrown error marks the span and is
 * rethrown. Without a registered provider `fn` just runs: starting a span
 * that records nothing and making it the active one costs every API request
 * a few microseconds and a promise for nothing.
 */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  if (!tracerRegistered()) return fn(NOT_RECORDED);
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

const MAX_QUERY_TEXT = 2_000;

/**
 * Runs one database statement in a span, when it runs inside a recorded
 * span (a traced request or store call); otherwise just runs it, so
 * untraced work pays nothing. The text is the statement with placeholders,
 * never its values.
 */
export function traceQuery<T>(system: 'sqlite' | 'postgresql' | 'mysql', sql: string, run: () => Promise<T>): Promise<T> {
  if (!trace.getActiveSpan()?.isRecording()) return run();
  const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
  const attributes = { 'db.system.name': system, 'db.operation.name': operation, 'db.query.text': sql.slice(0, MAX_QUERY_TEXT) };
  return inSpan(`${operation} ${system}`, attributes, run);
}
