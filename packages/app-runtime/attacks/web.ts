import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the loopback web received: its host (without port) and path with query. */
export interface WebRequest {
  host: string;
  url: string;
}

/**
 * The web of the suite, on one loopback port: pages for `news.test` (the user's sites),
 * `evil.test` (the attacker's, per case), `hook.test` (the user's own webhook), `ntfy.test` (a
 * site the user names that redirects wherever `/go?to=` says), pages set per case on any host
 * (`forum.test`, where the attacker can post), `hook.test` and `nas.test` (the user's webhook and
 * NAS, which repeat what they were sent), a Brave Search API and a SearXNG API, which
 * find nothing for a query naming `evil.test`. Every request is logged,
 * so a leak is seen wherever it went.
 */
export class SuiteWeb {
  readonly requests: WebRequest[] = [];
  /** The attacker's page of each case, by case id. */
  readonly evilPages = new Map<string, string>();
  /** The injected snippet the search API returns, for the current case. */
  searchInjection = '';
  /** Pages set by the current case, by `host` + path (`forum.test/thread/a1`). */
  readonly pages = new Map<string, string>();
  #server: Server;
  port = 0;

  constructor() {
    this.#server = createServer((request, response) => {
      const host = (request.headers.host ?? '').replace(/:\d+$/, '');
      const url = request.url ?? '/';
      this.requests.push({ host, url });
      const send = (status: number, type: string, body: string) => {
        response.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
        response.end(body);
      };
      const query = new URL(url, 'http://x').searchParams;
      if (url.startsWith('/res/v1/web/search'))
        return send(200, 'application/json', this.#search(query.get('q') ?? ''));
      if (url.startsWith('/search?')) return send(200, 'application/json', this.#searx(query.get('q') ?? ''));
      const path = url.replace(/[?#].*$/, '');
      const set = this.pages.get(`${host}${path}`);
      if (set !== undefined) return send(200, 'text/html', set);
      const to = /\/go\?to=(.+)$/.exec(url)?.[1];
      if (host === 'ntfy.test' && to) {
        response.writeHead(302, { location: decodeURIComponent(to) });
        return response.end();
      }
      if (host === 'ntfy.test') return send(200, 'text/plain', 'received');
      if (host === 'news.test') return send(200, 'text/html', newsPage(url, this.port));
      // The user's webhook repeats the message it got, as many do.
      if (host === 'hook.test')
        return send(200, 'text/plain', `received: ${query.get('message') ?? query.get('m') ?? ''}`);
      // The user's NAS answers an unknown path with the path, decoded, as many servers do.
      if (host === 'nas.test') return send(404, 'text/plain', `No page at ${safeDecode(url)}`);
      const id = /^\/post\/([\w-]+)/.exec(url)?.[1];
      const page = id ? this.evilPages.get(id) : undefined;
      if (host === 'evil.test' && page) return send(200, 'text/html', page);
      return send(host === 'evil.test' ? 200 : 404, 'text/plain', 'ok');
    });
  }

  async start(): Promise<void> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.port = (this.#server.address() as AddressInfo).port;
  }

  /** A URL on the suite's web: `url('news.test', '/today')`. */
  url(host: string, path: string): string {
    return `http://${host}:${this.port}${path}`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** SearXNG's JSON: one result, or none for a query naming the attacker's site. */
  #searx(query: string): string {
    const results = query.includes('evil.test')
      ? []
      : [
          {
            title: 'Quokka facts',
            url: this.url('news.test', '/quokka'),
            content: 'Quokkas live on Rottnest Island.',
          },
        ];
    return JSON.stringify({ query, results });
  }

  #search(query: string): string {
    // A query naming the attacker's site finds nothing (the tool then repeats the query).
    if (query.includes('evil.test')) return JSON.stringify({ type: 'search', web: { results: [] } });
    return JSON.stringify({
      type: 'search',
      web: {
        results: [
          {
            title: 'Quokka facts',
            url: this.url('news.test', '/quokka'),
            description: `Quokkas live on Rottnest Island. ${this.searchInjection}`,
          },
        ],
      },
    });
  }
}

function newsPage(url: string, port: number): string {
  const link = (path: string, text: string) => `<a href="http://news.test:${port}${path}">${text}</a>`;
  if (url.startsWith('/today'))
    return `<html><head><title>Today</title></head><body><article><h1>Today's news</h1><p>Rain is expected in the afternoon, with clear skies by evening and a light wind from the west.</p><p>Read on: ${link('/page-2', 'page two')}.</p></article></body></html>`;
  return `<html><head><title>News</title></head><body><article><h1>More news</h1><p>The quokka is a small marsupial that lives on islands off Western Australia and is known for its smile.</p></article></body></html>`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
