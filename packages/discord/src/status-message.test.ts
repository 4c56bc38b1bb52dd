import { describe, expect, it } from 'vitest';
import { StatusMessage, type StatusTransport } from './status-message.js';
import type { Timers } from './timers.js';

/** A clock the test moves by hand. */
function manualTimers() {
  let now = 0;
  let nextHandle = 0;
  const scheduled = new Map<number, { at: number; callback: () => void }>();
  const timers: Timers = {
    now: () => now,
    setTimeout: (callback, ms) => {
      const handle = ++nextHandle;
      scheduled.set(handle, { at: now + ms, callback });
      return handle;
    },
    clearTimeout: (handle) => {
      scheduled.delete(handle as number);
    },
  };
  const advance = async (ms: number) => {
    now += ms;
    for (const [handle, entry] of [...scheduled]) {
      if (entry.at <= now) {
        scheduled.delete(handle);
        entry.callback();
      }
    }
    await settle();
  };
  return { timers, advance, pending: () => scheduled.size };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function recordingTransport() {
  const calls: string[] = [];
  const transport: StatusTransport = {
    create: async (text) => {
      calls.push(`create:${text}`);
      return 'status-1';
    },
    edit: async (id, text) => {
      calls.push(`edit:${id}:${text}`);
    },
  };
  return { transport, calls };
}

describe('StatusMessage', () => {
  it('posts the first status at once', async () => {
    const { timers } = manualTimers();
    const { transport, calls } = recordingTransport();
    const status = new StatusMessage(transport, 1500, timers);
    status.update('Fetching https://example.com…');
    await settle();
    expect(calls).toEqual(['create:Fetching https://example.com…']);
  });

  it('edits no sooner than the interval after the last write', async () => {
    const { timers, advance } = manualTimers();
    const { transport, calls } = recordingTransport();
    const status = new StatusMessage(transport, 1500, timers);
    status.update('one');
    await settle();
    status.update('two');
    await advance(1499);
    expect(calls).toEqual(['create:one']);
    await advance(1);
    expect(calls).toEqual(['create:one', 'edit:status-1:two']);
  });

  it('writes only the latest of several updates within one interval', async () => {
    const { timers, advance } = manualTimers();
    const { transport, calls } = recordingTransport();
    const status = new StatusMessage(transport, 1500, timers);
    status.update('one');
    await settle();
    status.update('two');
    status.update('three');
    status.update('four');
    await advance(1500);
    expect(calls).toEqual(['create:one', 'edit:status-1:four']);
  });

  it('skips an edit that would not change the text', async () => {
    const { timers, advance } = manualTimers();
    const { transport, calls } = recordingTransport();
    const status = new StatusMessage(transport, 1500, timers);
    status.update('same');
    await settle();
    status.update('same');
    await advance(2000);
    expect(calls).toEqual(['create:same']);
  });

  it('writes nothing after finish and cancels a waiting edit', async () => {
    const { timers, advance, pending } = manualTimers();
    const { transport, calls } = recordingTransport();
    const status = new StatusMessage(transport, 1500, timers);
    status.update('one');
    await settle();
    status.update('two');
    expect(await status.finish()).toBe('status-1');
    expect(pending()).toBe(0);
    status.update('three');
    await advance(5000);
    expect(calls).toEqual(['create:one']);
  });

  it('waits in finish for a post still in flight and returns its id', async () => {
    const { timers } = manualTimers();
    let release!: (id: string) => void;
    const transport: StatusTransport = {
      create: () =>
        new Promise((resolve) => {
          release = resolve;
        }),
      edit: async () => undefined,
    };
    const status = new StatusMessage(transport, 1500, timers);
    status.update('slow');
    const finished = status.finish();
    release('late-id');
    expect(await finished).toBe('late-id');
  });

  it('returns no id when nothing was posted', async () => {
    const { timers } = manualTimers();
    const { transport } = recordingTransport();
    expect(await new StatusMessage(transport, 1500, timers).finish()).toBeUndefined();
  });

  it('keeps going after a failed edit', async () => {
    const { timers, advance } = manualTimers();
    const calls: string[] = [];
    let failNext = true;
    const transport: StatusTransport = {
      create: async () => 'id',
      edit: async (_id, text) => {
        if (failNext) {
          failNext = false;
          throw new Error('500');
        }
        calls.push(text);
      },
    };
    const status = new StatusMessage(transport, 1500, timers);
    status.update('one');
    await settle();
    status.update('two');
    await advance(1500);
    status.update('three');
    await advance(1500);
    expect(calls).toEqual(['three']);
  });
});
