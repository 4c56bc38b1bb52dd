import { describe, expect, it } from 'vitest';
import { waitUntilReady } from '../src/wait-until-ready.js';

const never = () => new Promise<void>(() => {});

describe('waiting for PostgreSQL to accept a connection', () => {
  it('resolves on the first connection that succeeds, though start() never settles', async () => {
    let attempts = 0;
    await waitUntilReady({
      start: never,
      attempt: async () => {
        attempts += 1;
        if (attempts < 3) throw new Error('ECONNREFUSED');
      },
      lastLines: () => '',
      limitMs: 60_000,
      pollMs: 1,
    });
    expect(attempts).toBe(3);
  });

  it('reports an exit before the server is ready at once, with its last lines', async () => {
    let exit = (): void => {};
    const waiting = waitUntilReady({
      start: () => new Promise<void>((_, reject) => (exit = () => reject())),
      attempt: async () => {
        throw new Error('ECONNREFUSED');
      },
      lastLines: () => 'FATAL:  could not create any TCP/IP sockets',
      limitMs: 60_000,
    });
    exit();
    await expect(waiting).rejects.toThrow(
      'PostgreSQL exited before it accepted a connection; its last lines:\nFATAL:  could not create any TCP/IP sockets',
    );
  });

  it("passes start()'s own error on", async () => {
    const waiting = waitUntilReady({
      start: async () => {
        throw new Error('Postgres cannot run as a root user.');
      },
      attempt: never,
      lastLines: () => '',
      limitMs: 60_000,
    });
    await expect(waiting).rejects.toThrow('Postgres cannot run as a root user.');
  });

  it('gives up on a start that hangs, naming the last attempt', async () => {
    const waiting = waitUntilReady({
      start: never,
      attempt: async () => {
        throw new Error('the database system is starting up');
      },
      lastLines: () => 'LOG:  starting PostgreSQL',
      limitMs: 50,
      pollMs: 1,
    });
    await expect(waiting).rejects.toThrow(
      'PostgreSQL accepted no connection within 50 ms (the last attempt: the database system is starting up); its last lines:\nLOG:  starting PostgreSQL',
    );
  });
});
