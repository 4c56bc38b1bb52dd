import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestKind } from './security.js';

/** What a route handler gets. */
export interface RouteContext {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  /** The regular expression's capture groups, in order. */
  params: string[];
}

/** One API endpoint. `kind` decides which security checks the request must pass. */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: RegExp;
  kind: RequestKind;
  handle(context: RouteContext): void | Promise<void>;
}

/** The outcome of matching a request against the routes. */
export type RouteMatch =
  | { route: Route; params: string[] }
  | { route: undefined; allowed: string[] } /* allowed is empty when no path matched */;

/** Finds the route for a method and path; a known path with another method lists the allowed ones. */
export function matchRoute(routes: readonly Route[], method: string, pathname: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const match = route.path.exec(pathname);
    if (!match) continue;
    if (route.method === method || (method === 'HEAD' && route.method === 'GET')) {
      return { route, params: match.slice(1).map(decodeParam) };
    }
    allowed.push(route.method);
  }
  return { route: undefined, allowed };
}

/** The security kind of a request's method when no route claims it (to refuse it the right way). */
export function kindOfMethod(method: string): RequestKind {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/** Decodes a path segment; a malformed escape (`%E0%A4%A`) stays as it is, and fails validation later. */
function decodeParam(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
