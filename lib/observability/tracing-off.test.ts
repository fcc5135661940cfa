// Without a registered tracer provider (no OTEL_EXPORTER_OTLP_ENDPOINT),
// inSpan makes no span at all: every API request runs through it.
import { ProxyTracer, trace } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inSpan } from './tracing';

describe('inSpan without a tracer provider', () => {
  beforeEach(() => trace.disable());
  afterEach(() => vi.restoreAllMocks());

  it('runs the work with a span that records nothing, starting none', async () => {
    const started = vi.spyOn(ProxyTracer.prototype, 'startActiveSpan');
    const result = await inSpan('GET /api', {}, async (span) => {
      span.setAttributes({ 'http.route': '/api' });
      span.updateName('GET /api/apps');
      return span.isRecording();
    });
    expect(result).toBe(false);
    expect(started).not.toHaveBeenCalled();
  });

  it('passes a thrown error on', async () => {
    await expect(inSpan('GET /api', {}, async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });
});
