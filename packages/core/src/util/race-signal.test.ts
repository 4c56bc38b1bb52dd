import { describe, expect, it } from 'vitest';
import { raceSignal } from './race-signal.js';

describe('raceSignal', () => {
  it('resolves with the promise when the signal stays quiet', async () => {
    const controller = new AbortController();
    await expect(raceSignal(Promise.resolve(7), controller.signal)).resolves.toBe(7);
  });

  it('rejects with the promise’s own error', async () => {
    const controller = new AbortController();
    await expect(raceSignal(Promise.reject(new Error('broke')), controller.signal)).rejects.toThrow('broke');
  });

  it('rejects with the abort reason while the promise is still pending', async () => {
    const controller = new AbortController();
    const raced = raceSignal(new Promise<never>(() => {}), controller.signal);
    controller.abort(new Error('stopped'));
    await expect(raced).rejects.toThrow('stopped');
  });

  it('rejects at once for a signal already aborted', async () => {
    const reason = new Error('too late');
    await expect(raceSignal(Promise.resolve(1), AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it('returns the promise’s outcome without a signal', async () => {
    await expect(raceSignal(Promise.resolve('x'), undefined)).resolves.toBe('x');
  });

  it('leaves no abort listener behind once the race is over', async () => {
    const controller = new AbortController();
    let listeners = 0;
    const { signal } = controller;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listeners--;
      remove(...args);
    }) as typeof signal.removeEventListener;
    for (let round = 0; round < 3; round++) await raceSignal(Promise.resolve(round), signal);
    await raceSignal(Promise.reject(new Error('x')), signal).catch(() => {});
    expect(listeners).toBe(0);
  });
});
