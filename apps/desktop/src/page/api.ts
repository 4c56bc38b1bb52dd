/** An API call the server refused or failed; `message` is the server's one sentence. */
export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'The dashboard server is not reachable: is `npm start` still running?');
  }
  const type = response.headers.get('content-type') ?? '';
  const payload: unknown = type.includes('json') ? await response.json() : await response.text();
  if (!response.ok) {
    const message =
      typeof payload === 'object' && payload !== null && 'error' in payload
        ? String((payload as { error: unknown }).error)
        : String(payload);
    throw new ApiError(response.status, message);
  }
  return payload as T;
}

/** GET a JSON resource of the dashboard API. */
export const getJson = <T>(path: string): Promise<T> => call<T>('GET', path);
/** POST (or PUT/DELETE) JSON to the dashboard API. */
export const sendJson = <T>(path: string, body: unknown, method = 'POST'): Promise<T> =>
  call<T>(method, path, body);
