import { describe, expect, it } from 'vitest';
import { isSecretKey, maskConfigValue, maskSecret } from './mask-config-value.js';

describe('masking', () => {
  it('keeps only the last four characters of a long secret', () => {
    expect(maskSecret('sk-1234567890abcdef')).toBe('****cdef');
  });

  it('hides a short secret entirely', () => {
    expect(maskSecret('abc123')).toBe('****');
  });

  it('shows a URL as its scheme and host only', () => {
    expect(maskConfigValue('MCP_SERVER_URL', 'https://me:hunter2@example.com/x?api_key=k&page=2')).toBe(
      'https://example.com/…',
    );
    expect(maskConfigValue('OLLAMA_HOST', 'http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434');
  });

  it('leaves a plain value alone', () => {
    expect(maskConfigValue('OLLAMA_MODEL', 'llama3.2:3b')).toBe('llama3.2:3b');
  });

  it('recognises secret keys', () => {
    expect(['DISCORD_BOT_TOKEN', 'BRAVE_API_KEY', 'DB_PASSWORD'].every(isSecretKey)).toBe(true);
    // OTLP headers carry the trace backend's key (Langfuse's Basic auth, Honeycomb's team key).
    expect(['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'].every(isSecretKey)).toBe(true);
    expect(['OLLAMA_HOST', 'OLLAMA_MODEL', 'ALLOW_LOCAL_CMD'].some(isSecretKey)).toBe(false);
  });

  it('masks secret assignments inside a command line', () => {
    expect(maskConfigValue('MCP_SERVER_STDIO', 'npx|server|--api-key=abc123|--port=1')).toBe(
      'npx|server|--api-key=****|--port=1',
    );
  });
});
