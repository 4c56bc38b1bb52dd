// The RUN_JS sandbox: one Worker per call, ended by the page at the time limit. The server gives
// this script a Content-Security-Policy that blocks every fetch, import and nested worker; the
// network and storage APIs are also removed here before any model-written code runs.

interface WorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<{ code: string }>) => void): void;
}

const scope = self as unknown as WorkerScope;
const post = scope.postMessage.bind(scope);

const BLOCKED = [
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebTransport',
  'EventSource',
  'importScripts',
  'indexedDB',
  'caches',
  'Worker',
  'SharedWorker',
  'BroadcastChannel',
  'Request',
  'postMessage',
];
// The APIs live on the global object and on its prototypes (WorkerGlobalScope.prototype…):
// shadowing the global alone would leave them one `Object.getPrototypeOf` away.
for (let target: object | null = globalThis; target !== null; target = Object.getPrototypeOf(target)) {
  for (const name of BLOCKED) {
    if (target !== globalThis && !Object.hasOwn(target, name)) continue;
    try {
      Object.defineProperty(target, name, { value: undefined, writable: false, configurable: false });
    } catch {
      // A name that cannot be redefined stays blocked by the worker's CSP.
    }
  }
}

function show(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

const output: string[] = [];
const capture =
  (prefix: string) =>
  (...values: unknown[]) => {
    if (output.length < 1000) output.push(prefix + values.map(show).join(' '));
  };
const sandboxConsole = {
  log: capture(''),
  info: capture(''),
  debug: capture(''),
  warn: capture('warning: '),
  error: capture('error: '),
};
Object.defineProperty(globalThis, 'console', { value: sandboxConsole, writable: false, configurable: false });

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  body: string,
) => () => Promise<unknown>;

function compile(code: string): () => Promise<unknown> {
  // An expression gives its value; anything else runs as a function body (use `return`).
  try {
    return new AsyncFunction(`"use strict";\nreturn (\n${code}\n);`);
  } catch {
    return new AsyncFunction(`"use strict";\n${code}`);
  }
}

scope.addEventListener('message', async (event) => {
  const code = String(event.data?.code ?? '');
  try {
    const value = await compile(code)();
    const lines = [...output];
    if (value !== undefined || lines.length === 0) lines.push(`Result: ${show(value)}`);
    post({ text: lines.join('\n'), isError: false });
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : show(error);
    post({ text: [...output, `Error: ${message}`].join('\n'), isError: true });
  }
});
