import { describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../test/support/fake-source.js';
import { createEmitter } from './emitter.js';

describe('createEmitter', () => {
  it('stops calling a listener once it unsubscribes', () => {
    const emitter = createEmitter<{ tick: number }>(createRecordingLogger().logger);
    const seen: number[] = [];
    const off = emitter.on('tick', (value) => seen.push(value));
    emitter.emit('tick', 1);
    off();
    emitter.emit('tick', 2);
    expect(seen).toEqual([1]);
  });

  it('logs a throwing listener and still calls the others', () => {
    const { logger, entries } = createRecordingLogger();
    const emitter = createEmitter<{ tick: number }>(logger);
    const seen: number[] = [];
    emitter.on('tick', () => {
      throw new Error('listener bug');
    });
    emitter.on('tick', (value) => seen.push(value));
    emitter.emit('tick', 1);
    expect(seen).toEqual([1]);
    expect(entries).toMatchObject([{ level: 'error', details: { error: 'Error: listener bug' } }]);
  });
});
