import type { Logger } from '@macstats/core';

/** Returned by `on`: call it to stop listening. */
export type Unsubscribe = () => void;

/** A minimal typed event emitter whose listeners cannot break the emitter by throwing. */
export interface Emitter<Events extends Record<string, unknown>> {
  on<Name extends keyof Events>(name: Name, listener: (value: Events[Name]) => void): Unsubscribe;
  emit<Name extends keyof Events>(name: Name, value: Events[Name]): void;
}

/** Creates an {@link Emitter}; a throwing listener is logged and the others still run. */
export function createEmitter<Events extends Record<string, unknown>>(logger: Logger): Emitter<Events> {
  const listeners = new Map<keyof Events, Set<(value: never) => void>>();
  return {
    on(name, listener) {
      let set = listeners.get(name);
      if (!set) {
        set = new Set();
        listeners.set(name, set);
      }
      set.add(listener as (value: never) => void);
      return () => {
        set.delete(listener as (value: never) => void);
      };
    },
    emit(name, value) {
      for (const listener of [...(listeners.get(name) ?? [])]) {
        try {
          (listener as (value: Events[typeof name]) => void)(value);
        } catch (error) {
          logger.error({ event: String(name), error: String(error) }, 'metrics listener threw');
        }
      }
    },
  };
}
