import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpDashboard, startHttpDashboard } from '../src/index.js';
import { rawRequest } from './http-client.js';

let dashboard: HttpDashboard;
let cookie: string;
let origin: string;

beforeAll(async () => {
  dashboard = await startHttpDashboard({ port: 0 });
  cookie = `macstats_${dashboard.port}=${dashboard.token}`;
  origin = `http://127.0.0.1:${dashboard.port}`;
});
afterAll(() => dashboard.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  rawRequest(dashboard.port, { path, headers });
const post = (path: string, headers: Record<string, string>, body = '{}') =>
  rawRequest(dashboard.port, {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

describe('the token', () => {
  it('is in the printed URL, which sets an HttpOnly cookie and redirects to a URL without it', async () => {
    expect(dashboard.url).toBe(`${origin}/?token=${dashboard.token}`);
    const response = await get(`/?token=${dashboard.token}`, { 'sec-fetch-site': 'none' });
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe('/');
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toContain(`macstats_${dashboard.port}=${dashboard.token}`);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
  });

  it('opens the page with the cookie, under a strict Content-Security-Policy', async () => {
    const response = await get('/', { cookie });
    expect(response.status).toBe(200);
    expect(response.body).toContain('<title>macstats</title>');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('refuses the page without a token', async () => {
    const response = await get('/');
    expect(response.status).toBe(401);
    expect(response.body).toMatch(/open the URL printed in the terminal/);
  });

  it('refuses a wrong token in the URL and in the cookie', async () => {
    expect((await get('/?token=guess')).status).toBe(401);
    expect((await get('/', { cookie: `macstats_${dashboard.port}=guess` })).status).toBe(401);
  });

  it('accepts the right cookie beside a planted one of the same name', async () => {
    const planted = `macstats_${dashboard.port}=planted; ${cookie}`;
    expect((await get('/', { cookie: planted })).status).toBe(200);
  });

  it('is not taken from the query string of an API request', async () => {
    expect((await get(`/api/state?token=${dashboard.token}`)).status).toBe(401);
  });

  it('is required for assets and the API too', async () => {
    expect((await get('/assets/app.js')).status).toBe(401);
    expect((await get('/api/state')).status).toBe(401);
    expect((await get('/assets/app.js', { cookie })).status).toBe(200);
  });
});

describe('the Host header', () => {
  it('refuses a foreign host name that resolves to loopback (DNS rebinding), token or not', async () => {
    const response = await get(`/?token=${dashboard.token}`, {
      host: `evil.example:${dashboard.port}`,
      cookie,
    });
    expect(response.status).toBe(421);
  });

  it('refuses the right name on another port', async () => {
    expect((await get('/', { host: `127.0.0.1:${dashboard.port + 1}`, cookie })).status).toBe(421);
  });

  it('accepts localhost on the bound port', async () => {
    expect((await get('/', { host: `localhost:${dashboard.port}`, cookie })).status).toBe(200);
  });
});

describe('the Origin header', () => {
  it('is required on a state-changing request', async () => {
    const response = await post('/api/run-js/abc', { cookie }, '{"clientId":"x","text":"1"}');
    expect(response.status).toBe(403);
  });

  it('refuses a state-changing request from another local origin', async () => {
    const foreign = `http://127.0.0.1:${dashboard.port + 1}`;
    const response = await post(
      '/api/run-js/abc',
      { cookie, origin: foreign },
      '{"clientId":"x","text":"1"}',
    );
    expect(response.status).toBe(403);
    expect((await post('/api/run-js/abc', { cookie, origin: 'null' })).status).toBe(403);
  });

  it('lets the page itself through (and then the API decides)', async () => {
    const response = await post('/api/run-js/abc', { cookie, origin }, '{"clientId":"x","text":"1"}');
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toEqual({ error: 'No JavaScript call waits under that id.' });
  });

  it('refuses the live stream to another origin', async () => {
    const response = await get('/api/stream', { cookie, origin: 'http://evil.example' });
    expect(response.status).toBe(403);
  });

  it('refuses the live stream when the browser does not say it is same-origin', async () => {
    expect((await get('/api/stream', { cookie })).status).toBe(403);
    expect((await get('/api/stream', { cookie, 'sec-fetch-site': 'same-site' })).status).toBe(403);
  });

  it('opens the live stream for the page', async () => {
    const response = await get('/api/stream', { cookie, 'sec-fetch-site': 'same-origin' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(response.body).toMatch(/^event: hello\ndata: \{"clientId":"[\w-]+"/);
  });
});

describe('reads from other pages', () => {
  it('refuses an API read made by another local site, even with the cookie', async () => {
    expect((await get('/api/state', { cookie, 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await get('/assets/app.js', { cookie, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });

  it('sends no CORS headers, even to a preflight', async () => {
    const preflight = await rawRequest(dashboard.port, {
      method: 'OPTIONS',
      path: '/api/state',
      headers: { cookie, origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    const read = await get('/api/state', { cookie });
    for (const response of [preflight, read]) {
      expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
    expect(read.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});

describe('the RUN_JS worker script', () => {
  it('is served with a policy that allows evaluation and nothing else', async () => {
    const response = await get('/assets/run-js-worker.js', { cookie, 'sec-fetch-site': 'same-origin' });
    expect(response.status).toBe(200);
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; script-src 'unsafe-eval'");
  });
});
