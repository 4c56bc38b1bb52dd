import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Logger, silentLogger } from '@macstats/core';
import { createEventHub, type EventHub, type StreamClient } from './event-hub.js';
import {
  checkId,
  HttpError,
  isServerAway,
  readJsonBody,
  sendError,
  sendJson,
  sendText,
  stringField,
} from './http-helpers.js';
import { renderPageHtml } from './page-html.js';
import { kindOfMethod, matchRoute, type Route } from './router.js';
import { createRunJsBridge, type RunJsBridge } from './run-js-bridge.js';
import { createRequestGuard, PAGE_CSP, type RequestGuard, SECURITY_HEADERS, WORKER_CSP } from './security.js';
import { defaultPageDir, loadStaticFiles } from './static-files.js';

/** A part of the dashboard (metrics, chat, settings, schedules): its routes and its lifecycle. */
export interface DashboardFeature {
  routes: Route[];
  /** Data for the page's first paint, merged into `GET /api/state`. */
  state?(): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Called with the number of open pages whenever it changes. */
  onClientCountChange?(count: number): void;
  /** Called when a page opens the live stream, to send what it must not miss. */
  onStreamOpen?(client: StreamClient): void;
  close?(): void | Promise<void>;
}

/** What the features are built from. */
export interface DashboardCore {
  hub: EventHub;
  runJs: RunJsBridge;
  logger: Logger;
  /** Conversation id → client id of the page that asked last there: where its RUN_JS calls go. */
  askingPages: Map<string, string>;
}

/** Options of {@link startHttpDashboard}. */
export interface HttpDashboardOptions {
  /** Port on 127.0.0.1; 0 picks a free one. Default 0. */
  port?: number;
  /** Folder of the built page (`app.js`, `app.css`, `run-js-worker.js`). Default: `dist/page`. */
  pageDir?: string;
  /** How long RUN_JS code may run in the page's worker. Default 5000 ms. */
  runJsTimeoutMs?: number;
  logger?: Logger;
  /** Builds the features once the shared parts exist. */
  features?: (core: DashboardCore) => DashboardFeature[] | Promise<DashboardFeature[]>;
}

/** A running dashboard server. */
export interface HttpDashboard extends DashboardCore {
  /** The URL to open, with this launch's token: `http://127.0.0.1:<port>/?token=…`. */
  url: string;
  /** The base URL without the token. */
  origin: string;
  token: string;
  port: number;
  /** Stops listening, ends the streams, closes the features. */
  close(): Promise<void>;
}

/**
 * Starts the local server: bound to 127.0.0.1 only, every request checked by the per-launch
 * guard (token, Host, Origin), the page and its assets, the live stream, and the features' API.
 */
export async function startHttpDashboard(options: HttpDashboardOptions = {}): Promise<HttpDashboard> {
  const logger = options.logger ?? silentLogger;
  const files = loadStaticFiles(options.pageDir ?? defaultPageDir());
  const html = Buffer.from(renderPageHtml());
  let features: DashboardFeature[] = [];
  const live: LiveServer = { logger, files, html, routes: [], guard: undefined };

  const hub = createEventHub({
    onClientCountChange: (count) => {
      for (const feature of features) feature.onClientCountChange?.(count);
    },
  });
  const askingPages = new Map<string, string>();
  const runJsOptions = {
    hub,
    clientFor: (conversationId: string | undefined) =>
      conversationId === undefined ? undefined : askingPages.get(conversationId),
    ...(options.runJsTimeoutMs === undefined ? {} : { workerTimeoutMs: options.runJsTimeoutMs }),
  };
  const runJs = createRunJsBridge(runJsOptions);
  const core: DashboardCore = { hub, runJs, logger, askingPages };

  const baseRoutes: Route[] = [
    {
      method: 'GET',
      path: /^\/$/,
      kind: 'page',
      handle: ({ url, response }) => servePage(live, url, response),
    },
    {
      method: 'GET',
      path: /^\/assets\/([\w.-]+)$/,
      kind: 'read',
      handle: ({ params, response }) => serveAsset(live, params[0] ?? '', response),
    },
    {
      method: 'GET',
      path: /^\/api\/stream$/,
      kind: 'stream',
      handle: ({ response }) => {
        const client = hub.attach(response);
        for (const feature of features) feature.onStreamOpen?.(client);
      },
    },
    {
      method: 'GET',
      path: /^\/api\/state$/,
      kind: 'read',
      handle: async ({ response }) => {
        const parts = await Promise.all(features.map((feature) => feature.state?.() ?? {}));
        sendJson(response, 200, Object.assign({}, ...parts));
      },
    },
    {
      method: 'POST',
      path: /^\/api\/run-js\/([\w-]+)$/,
      kind: 'write',
      handle: async ({ request, response, params }) => {
        const body = await readJsonBody(request);
        const clientId = checkId(stringField(body, 'clientId'), 'client id');
        const text = stringField(body, 'text', false);
        const accepted = runJs.resolve(params[0] ?? '', clientId, {
          text,
          isError: body['isError'] === true,
        });
        if (!accepted) throw new HttpError(404, 'No JavaScript call waits under that id.');
        sendJson(response, 200, { ok: true });
      },
    },
  ];

  const server = createServer((request, response) => {
    handle(live, request, response).catch((error: unknown) => {
      // Never an unhandled rejection: a bug in one request must not stop the dashboard.
      logger.error({ err: error }, 'request handling failed');
      if (response.headersSent) response.destroy();
      else sendText(response, 500, 'The dashboard failed on this request.');
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const guard = createRequestGuard(port);
  live.guard = guard;
  try {
    features = (await options.features?.(core)) ?? [];
  } catch (error) {
    server.close();
    hub.closeAll();
    throw error;
  }
  live.routes = [...baseRoutes, ...features.flatMap((feature) => feature.routes)];
  const origin = `http://127.0.0.1:${port}`;

  return {
    ...core,
    url: `${origin}/?token=${guard.token}`,
    origin,
    token: guard.token,
    port,
    async close() {
      runJs.cancelAll();
      hub.closeAll();
      await Promise.allSettled(features.map((feature) => feature.close?.()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the server's request handling reads: set as the server comes up. */
interface LiveServer {
  logger: Logger;
  files: ReturnType<typeof loadStaticFiles>;
  html: Buffer;
  routes: Route[];
  guard: RequestGuard | undefined;
}

/** The page, with the token moved from the address into a cookie on the first visit. */
function servePage(live: LiveServer, url: URL, response: ServerResponse): void {
  const { guard, html } = live;
  if (guard?.hasQueryToken(url)) {
    // Store the token in a cookie and drop it from the address bar and history.
    response.writeHead(303, { ...SECURITY_HEADERS, 'Set-Cookie': guard.cookieHeader(), Location: '/' });
    response.end();
    return;
  }
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': PAGE_CSP,
    'Content-Length': html.length,
  });
  response.end(html);
}

/** An asset of the built page; the RUN_JS worker gets its own, stricter policy. */
function serveAsset(live: LiveServer, name: string, response: ServerResponse): void {
  const file = live.files.get(name);
  if (!file) {
    sendText(response, 404, 'No such file.');
    return;
  }
  const headers: Record<string, string | number> = {
    ...SECURITY_HEADERS,
    'Content-Type': file.contentType,
    'Content-Length': file.body.length,
  };
  if (name.startsWith('run-js-worker')) headers['Content-Security-Policy'] = WORKER_CSP;
  response.writeHead(200, headers);
  response.end(file.body);
}

/** One request: the guard first, then its route; a failure answers with one sentence. */
async function handle(live: LiveServer, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { guard, logger } = live;
  const method = request.method ?? 'GET';
  let url: URL;
  try {
    url = new URL(request.url ?? '/', 'http://127.0.0.1');
  } catch {
    return sendText(response, 400, 'The request path is not valid.');
  }
  const match = matchRoute(live.routes, method, url.pathname);
  const kind = match.route?.kind ?? kindOfMethod(method);
  const refusal = guard
    ? guard.check(request, kind, url)
    : { status: 503, message: 'The dashboard is starting.' };
  if (refusal) return sendText(response, refusal.status, refusal.message);
  if (!match.route) {
    if (match.allowed.length > 0) {
      response.setHeader('Allow', match.allowed.join(', '));
      return sendError(response, 405, `Use ${match.allowed.join(' or ')} here.`);
    }
    return sendError(response, 404, 'Nothing here.');
  }
  try {
    await match.route.handle({ request, response, url, params: match.params });
  } catch (error) {
    if (response.headersSent) {
      response.destroy();
    } else if (error instanceof HttpError) {
      sendError(response, error.status, error.message);
    } else if (isServerAway(error)) {
      // A shared database (or model server) that went away: its own sentence, and a retry may work.
      const message = (error as Error).message;
      logger.warn({ err: error, path: url.pathname }, message);
      sendError(response, 503, message);
    } else {
      logger.error({ err: error, path: url.pathname }, 'request failed');
      sendError(
        response,
        500,
        `The dashboard failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
