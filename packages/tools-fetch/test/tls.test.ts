import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchUrlTool } from '../src/index.js';
import { startServer, type TestServer } from './server.js';

let server: TestServer;
let directory: string;

beforeAll(async () => {
  // A throwaway self-signed certificate, made for this run: nothing to trust, nothing to commit.
  directory = mkdtempSync(join(tmpdir(), 'tools-fetch-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-keyout',
      join(directory, 'key.pem'),
      '-out',
      join(directory, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const https = createServer({
    key: readFileSync(join(directory, 'key.pem')),
    cert: readFileSync(join(directory, 'cert.pem')),
  });
  server = await startServer((_request, response) => response.end('should not be read'), https);
});

afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('FETCH_URL over TLS', () => {
  it('reports a certificate it cannot trust as a TLS failure', async () => {
    const tool = createFetchUrlTool({ allowHosts: ['127.0.0.1'] });
    const result = await tool.run(`${server.origin}/`, { signal: new AbortController().signal });
    expect(result).toEqual({
      isError: true,
      text: `TLS failed for 127.0.0.1:${server.port}: self-signed certificate`,
    });
    expect(server.requests).toHaveLength(0);
  });
});
