import { describe, expect, it } from 'vitest';
import { readTracingSettings } from './tracing-settings.js';

const read = (env: Record<string, string>) => readTracingSettings((key) => env[key]);

describe('readTracingSettings', () => {
  it('is off when no OTLP endpoint or exporter is set', () => {
    expect(read({})).toEqual({ exporter: 'none', reason: 'no OTEL_EXPORTER_OTLP_ENDPOINT is set' });
  });

  it('posts to <endpoint>/v1/traces over http/protobuf by default', () => {
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' })).toEqual({
      exporter: 'otlp',
      protocol: 'http/protobuf',
      url: 'http://127.0.0.1:4318/v1/traces',
      headers: {},
    });
  });

  it('takes the traces endpoint as it is, the traces protocol first, and decoded headers', () => {
    expect(
      read({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://cloud.langfuse.com/api/public/otel/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Basic%20abc,x-one=1',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-one=2',
      }),
    ).toEqual({
      exporter: 'otlp',
      protocol: 'http/json',
      url: 'https://cloud.langfuse.com/api/public/otel/v1/traces',
      headers: { Authorization: 'Basic abc', 'x-one': '2' },
    });
  });

  it('uses the local collector for OTEL_TRACES_EXPORTER=otlp without an endpoint', () => {
    expect(read({ OTEL_TRACES_EXPORTER: 'otlp' })).toMatchObject({ url: 'http://localhost:4318/v1/traces' });
  });

  it('is off for OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER=none and grpc, with the reason', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    expect(read({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toMatchObject({ exporter: 'none' });
    expect(read({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toMatchObject({ exporter: 'none' });
    expect(read({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual({
      exporter: 'none',
      reason: 'OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not supported; use http/protobuf or http/json',
    });
  });

  it('prints to the console for OTEL_TRACES_EXPORTER=console', () => {
    expect(read({ OTEL_TRACES_EXPORTER: 'console' })).toEqual({ exporter: 'console' });
  });
});
