import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type FakeCdnFile, readDiscordBody, serveCdnFile } from './fake-discord-attachments.js';
import { compileTemplate, type RestResult, type RestRoute } from './fake-discord-rest.js';
import type { FakeDiscordFailure, FakeDiscordRequestRecord } from './fake-discord-types.js';

interface PendingFailure {
  method: string;
  pattern: RegExp;
  status: number;
  retryAfter: number;
  times: number;
  skip: number;
  global: boolean;
  afterCommit: boolean;
}

interface Window {
  start: number;
  count: number;
}

/** Options of the HTTP side: authentication, rate limits and the request log. */
export interface FakeHttpOptions {
  token: string | undefined;
  rateLimit: { limit: number; windowMs: number } | undefined;
  requests: FakeDiscordRequestRecord[];
  onChange(): void;
  /** Attachment bytes served under `/attachments/` (the fake's CDN). */
  files?: ReadonlyMap<string, FakeCdnFile>;
}

const DEFAULT_LIMIT = { limit: 10_000, windowMs: 1000 };

/**
 * The REST front of the fake Discord: `/api/v<n>/...` routing, bot-token checks, Discord's
 * rate-limit headers, real 429s when a limit is configured, and injected failures.
 */
export class FakeDiscordHttp {
  private readonly failures: PendingFailure[] = [];
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly routes: RestRoute[],
    private readonly options: FakeHttpOptions,
  ) {}

  /** Queues a failure for the next request matching `METHOD /path/:param`. */
  failNext(route: string, status: number, retryAfterOrOptions?: number | FakeDiscordFailure): void {
    const match = /^([A-Z]+)\s+(\/\S*)$/.exec(route.trim());
    if (!match)
      throw new Error(`failNext: route must look like "POST /channels/:id/messages", got "${route}"`);
    const options: FakeDiscordFailure =
      typeof retryAfterOrOptions === 'number'
        ? { retryAfter: retryAfterOrOptions }
        : (retryAfterOrOptions ?? {});
    this.failures.push({
      method: match[1] ?? 'GET',
      pattern: compileTemplate(match[2] ?? '/').pattern,
      status,
      retryAfter: options.retryAfter ?? 0.05,
      times: options.times ?? 1,
      skip: options.skip ?? 0,
      global: options.global ?? false,
      afterCommit: options.afterCommit ?? false,
    });
  }

  /** Drops every failure not yet served. */
  clearFailures(): void {
    this.failures.length = 0;
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? 'GET';
    if (method === 'GET' && url.pathname.startsWith('/attachments/') && this.options.files) {
      serveCdnFile(url, this.options.files, response);
      return;
    }
    const versioned = /^\/api\/v\d+(\/.*)$/.exec(url.pathname);
    const path = versioned?.[1] ?? url.pathname;
    let body: unknown;
    try {
      body = await readDiscordBody(request);
    } catch {
      this.answer(response, method, path, undefined, {
        status: 400,
        body: { message: '400: Bad Request', code: 50109 },
      });
      return;
    }
    if (!versioned) {
      this.answer(response, method, path, body, {
        status: 404,
        body: { message: '404: Not Found', code: 0 },
      });
      return;
    }
    const route = this.findRoute(method, path);
    const bucket = route ? this.bucketOf(method, route, path) : undefined;
    const authorization = request.headers.authorization ?? '';
    const unauthorized =
      !authorization.startsWith('Bot ') ||
      (this.options.token !== undefined && authorization !== `Bot ${this.options.token}`);
    // Gateway discovery, interaction callbacks and webhooks take no bot token (the token is in the path).
    const open =
      route?.template === '/gateway' ||
      route?.template.startsWith('/interactions/') ||
      route?.template.startsWith('/webhooks/');
    if (!open && unauthorized) {
      this.answer(response, method, path, body, {
        status: 401,
        body: { message: '401: Unauthorized', code: 0 },
      });
      return;
    }
    const failure = this.takeFailure(method, path);
    if (failure && !failure.afterCommit) {
      this.answerFailure(response, method, path, body, failure, bucket);
      return;
    }
    if (bucket && this.options.rateLimit) {
      const limited = this.checkLimit(bucket);
      if (limited !== undefined) {
        const retryAfter = limited / 1000;
        this.answerFailure(response, method, path, body, { ...RATE_LIMITED, retryAfter }, bucket);
        return;
      }
    } else if (bucket) this.checkLimit(bucket);
    const result: RestResult = route
      ? route.handler(this.paramsOf(route, path), body, url.searchParams)
      : { status: 404, body: { message: '404: Not Found', code: 0 } };
    if (failure) {
      this.answerFailure(response, method, path, body, failure, bucket);
      return;
    }
    this.answer(response, method, path, body, result, bucket ? this.limitHeaders(bucket) : {});
  }

  private findRoute(method: string, path: string): RestRoute | undefined {
    // Literal routes (`/users/@me`) win over parameterised ones (`/users/:userId`).
    const candidates = this.routes.filter((route) => route.method === method && route.pattern.test(path));
    return candidates.sort((a, b) => a.names.length - b.names.length)[0];
  }

  private paramsOf(route: RestRoute, path: string): Record<string, string> {
    const values = route.pattern.exec(path)?.slice(1) ?? [];
    return Object.fromEntries(
      route.names.map((name, index) => [name, decodeURIComponent(values[index] ?? '')]),
    );
  }

  private bucketOf(method: string, route: RestRoute, path: string): { key: string; hash: string } {
    const params = this.paramsOf(route, path);
    const major = params.channelId ?? params.guildId ?? '';
    const hash = createHash('sha1').update(`${method} ${route.template}`).digest('hex').slice(0, 16);
    return { key: `${hash}:${major}`, hash };
  }

  /** Counts a request in its window; returns the milliseconds to wait when over the limit. */
  private checkLimit(bucket: { key: string }): number | undefined {
    const { limit, windowMs } = this.options.rateLimit ?? DEFAULT_LIMIT;
    const now = Date.now();
    let window = this.windows.get(bucket.key);
    if (!window || now - window.start >= windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(bucket.key, window);
    }
    if (window.count >= limit) return window.start + windowMs - now;
    window.count++;
    return undefined;
  }

  private limitHeaders(bucket: { key: string; hash: string }): Record<string, string> {
    const { limit, windowMs } = this.options.rateLimit ?? DEFAULT_LIMIT;
    const window = this.windows.get(bucket.key) ?? { start: Date.now(), count: 0 };
    const resetAt = window.start + windowMs;
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - window.count)),
      'x-ratelimit-reset': (resetAt / 1000).toFixed(3),
      'x-ratelimit-reset-after': (Math.max(0, resetAt - Date.now()) / 1000).toFixed(3),
      'x-ratelimit-bucket': bucket.hash,
    };
  }

  private takeFailure(method: string, path: string): PendingFailure | undefined {
    const index = this.failures.findIndex(
      (failure) => failure.method === method && failure.pattern.test(path),
    );
    const failure = this.failures[index];
    if (!failure) return undefined;
    if (failure.skip > 0) {
      failure.skip--;
      return undefined;
    }
    failure.times--;
    if (failure.times <= 0) this.failures.splice(index, 1);
    return failure;
  }

  private answerFailure(
    response: ServerResponse,
    method: string,
    path: string,
    body: unknown,
    failure: Pick<PendingFailure, 'status' | 'retryAfter' | 'global'>,
    bucket: { key: string; hash: string } | undefined,
  ): void {
    if (failure.status !== 429) {
      const text = `${failure.status}: ${failure.status >= 500 ? 'Internal Server Error' : 'Error'}`;
      this.answer(response, method, path, body, { status: failure.status, body: { message: text, code: 0 } });
      return;
    }
    const headers: Record<string, string> = {
      'retry-after': String(failure.retryAfter),
      'x-ratelimit-scope': failure.global ? 'global' : 'user',
    };
    if (failure.global) headers['x-ratelimit-global'] = 'true';
    else if (bucket) {
      Object.assign(headers, this.limitHeaders(bucket), {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset-after': String(failure.retryAfter),
      });
    }
    const result = {
      status: 429,
      body: {
        message: 'You are being rate limited.',
        retry_after: failure.retryAfter,
        global: failure.global,
      },
    };
    this.answer(response, method, path, body, result, headers);
  }

  private answer(
    response: ServerResponse,
    method: string,
    path: string,
    body: unknown,
    result: RestResult,
    headers: Record<string, string> = {},
  ): void {
    this.options.requests.push({ method, path, status: result.status, body, at: Date.now() });
    if (result.body === undefined) response.writeHead(result.status, headers).end();
    else {
      response.writeHead(result.status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(result.body));
    }
    this.options.onChange();
  }
}

const RATE_LIMITED = { status: 429, retryAfter: 0, global: false };
