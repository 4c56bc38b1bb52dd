import type { ToolContext, ToolResult } from '@macstats/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserTool, createBrowserTool } from '../src/index.js';
import { html, mapHosts, startSite, type TestSite } from './site.js';

// The site listens on 127.0.0.1; "public.test" resolves there and is allowed by name, so it
// plays a public site. Requests to 127.0.0.1 itself are the private ones the policy refuses.
let site: TestSite;
let browser: BrowserTool;
let publicOrigin: string;

const context = (): ToolContext => ({ signal: new AbortController().signal, conversationId: 'guard' });

async function run(argument: string): Promise<ToolResult> {
  const result = await browser.run(argument, context());
  return typeof result === 'string' ? { text: result } : result;
}

beforeAll(async () => {
  site = await startSite(({ origin }) => ({
    '/to-loopback': (_request, response) => {
      response.writeHead(302, { location: `${origin}/secret` }).end();
    },
    '/to-metadata': (_request, response) => {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    },
    '/secret': html('<title>Secret</title><p>the private page</p>'),
    '/private.png': (_request, response) => {
      response.writeHead(200, { 'content-type': 'image/png' }).end();
    },
    '/private-data': (_request, response) => {
      response
        .writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' })
        .end('private');
    },
    '/mixed': html(
      `<title>Public page</title><h1>Public</h1>
       <img src="${origin}/private.png" alt="tracker">
       <p id=out>waiting</p>
       <script>
         fetch('${origin}/private-data').then((r) => r.text()).then(
           (t) => { document.getElementById('out').textContent = 'fetched: ' + t; },
           () => { document.getElementById('out').textContent = 'fetch failed'; });
       </script>`,
    ),
    '/report.pdf': (_request, response) => {
      response
        .writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename="report.pdf"',
        })
        .end('%PDF-1.4 not really');
    },
    '/downloads': html('<title>Files</title><a href="/report.pdf" download>Report</a>'),
    '/sockets': html(
      `<title>Sockets</title><p id=public>waiting</p><p id=private>waiting</p>
       <script>
         const watch = (id, url) => {
           const socket = new WebSocket(url);
           socket.onopen = () => { document.getElementById(id).textContent = id + ' socket open'; };
           socket.onerror = () => { document.getElementById(id).textContent = id + ' socket refused'; };
         };
         watch('public', 'ws://' + location.host + '/ws-public');
         watch('private', '${origin.replace('http:', 'ws:')}/ws-private');
       </script>`,
    ),
  }));
  publicOrigin = `http://public.test:${site.port}`;
  browser = createBrowserTool({
    allowHosts: ['public.test'],
    lookup: mapHosts({ 'public.test': '127.0.0.1' }),
  });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('the address policy on every request a page makes', () => {
  it('opens the public test host', async () => {
    const result = await run(`open ${publicOrigin}/secret`);
    expect(result.text).toContain('the private page');
  });

  it('refuses a redirect to 127.0.0.1', async () => {
    const before = site.seen.filter((path) => path === '/secret').length;
    const result = await run(`open ${publicOrigin}/to-loopback`);
    expect(result.isError).toBe(true);
    expect(result.text).toContain('blocked: 127.0.0.1 is a loopback address');
    expect(site.seen.filter((path) => path === '/secret').length).toBe(before);
  });

  it('refuses a redirect to the cloud metadata address', async () => {
    const result = await run(`open ${publicOrigin}/to-metadata`);
    expect(result.isError).toBe(true);
    expect(result.text).toContain('blocked: 169.254.169.254 is a cloud metadata address');
  });

  it('refuses an image and a fetch() to a private address from a public page', async () => {
    const result = await run(`open ${publicOrigin}/mixed`);
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('fetch failed');
    expect(result.text).toContain(
      `refused ${site.origin}/private.png: blocked: 127.0.0.1 is a loopback address`,
    );
    expect(result.text).toContain(`refused ${site.origin}/private-data: blocked`);
    expect(site.seen).not.toContain('/private.png');
    expect(site.seen).not.toContain('/private-data');
  });

  it('refuses a download and says so', async () => {
    const page = await run(`open ${publicOrigin}/downloads`);
    const link = /\[(\w+)\] link "Report"/.exec(page.text)?.[1];
    const result = await run(`click ${link}`);
    expect(result.text).toContain(`refused a download of ${publicOrigin}/report.pdf`);
  });

  it('lets a WebSocket go to the public host and refuses one to a private address', async () => {
    await run(`open ${publicOrigin}/sockets`);
    const result = await run('wait for private socket refused');
    expect(result.text).toContain('private socket refused');
    expect((await run('wait for public socket open')).text).toContain('public socket open');
    expect(site.seen).toContain('/ws-public');
    expect(site.seen).not.toContain('/ws-private');
  });

  it('refuses a data: URL', async () => {
    const result = await run('open data:text/html,<h1>hi</h1>');
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^refused: the browser opens only http and https pages, not data:/);
  });
});
