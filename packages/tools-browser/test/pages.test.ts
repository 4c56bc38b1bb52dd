import type { ToolContext, ToolResult } from '@macstats/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserTool, createBrowserTool } from '../src/index.js';
import { html, startSite, type TestSite } from './site.js';

let site: TestSite;
let browser: BrowserTool;

const context = (conversationId = 'pages'): ToolContext => ({
  signal: new AbortController().signal,
  conversationId,
});

async function run(argument: string, conversationId?: string): Promise<ToolResult> {
  const result = await browser.run(argument, context(conversationId));
  return typeof result === 'string' ? { text: result } : result;
}

beforeAll(async () => {
  site = await startSite(() => ({
    '/js-only': html(
      `<!doctype html><title>Prices</title><body><div id=app></div><script>
        document.getElementById('app').innerHTML = '<h1>Today</h1><p>The price is 42 euros.</p>';
        setTimeout(() => { const p = document.createElement('p'); p.textContent = 'Added after load.'; document.body.append(p); }, 50);
      </script></body>`,
    ),
    '/login': html(
      `<!doctype html><title>Login</title><form method=post action=/welcome>
        <label>User name <input name=user></label>
        <label>Password <input name=password type=password></label>
        <button>Sign in</button></form>`,
    ),
    '/welcome': (_request, response, body) => {
      const user = new URLSearchParams(body).get('user');
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<title>Welcome</title><h1>Hello ${user}</h1>`);
    },
    '/consent': html(
      `<!doctype html><title>News</title>
       <div role=dialog aria-label="Cookies" id=banner style="position:fixed;inset:0;background:white">
         We use cookies. <button onclick="document.getElementById('banner').remove(); document.getElementById('article').hidden = false">Accept all</button>
       </div>
       <article id=article hidden><h1>Headline</h1><p>The article text.</p></article>`,
    ),
  }));
  browser = createBrowserTool({ allowHosts: ['127.0.0.1'] });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('BROWSER on pages served on loopback', () => {
  it('reads text that exists only after the page script ran', async () => {
    const result = await run(`open ${site.origin}/js-only`);
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('# Today');
    expect(result.text).toContain('The price is 42 euros.');
    expect(result.text).toContain('Added after load.');
  });

  it('fills a login form and submits it', async () => {
    const form = await run(`open ${site.origin}/login`);
    const user = /\[(\w+)\] textbox "User name"/.exec(form.text)?.[1];
    const password = /\[(\w+)\] textbox "Password"/.exec(form.text)?.[1];
    const submit = /\[(\w+)\] button "Sign in"/.exec(form.text)?.[1];
    expect([user, password, submit].every(Boolean)).toBe(true);
    await run(`type ${user} "ada"`);
    await run(`type ${password} secret words`);
    const after = await run(`click ${submit}`);
    expect(after.text).toContain('# Hello ada');
  });

  it('clicks a consent banner away and reads the article behind it', async () => {
    const banner = await run(`open ${site.origin}/consent`);
    expect(banner.text).not.toContain('The article text.');
    const accept = /\[(\w+)\] button "Accept all"/.exec(banner.text)?.[1];
    const after = await run(`click ${accept}`);
    expect(after.text).toContain('The article text.');
    expect(after.text).not.toContain('Accept all');
  });

  it('refuses a file: URL with one sentence', async () => {
    const result = await run('open file:///etc/passwd');
    expect(result).toEqual({
      isError: true,
      text: 'refused: the browser opens only http and https pages, not file: (file:///etc/passwd).',
    });
  });
});
