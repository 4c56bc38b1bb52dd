import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** A request a test server received. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/** A real HTTP server on 127.0.0.1, port chosen by the system. */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a loopback server answering with `handler`; `close()` ends every connection. */
export async function startServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  server: Server = createServer(),
): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const protocol = server instanceof HttpsServer ? 'https' : 'http';
  return {
    origin: `${protocol}://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
