type Undici = typeof import('undici').default;

let loading: Promise<Undici> | undefined;

/**
 * undici, imported on first use: a process that never makes a request of its own never holds
 * it. undici is CommonJS; Node hands its exports both by name and as `default`, while a bundle
 * that puts it in a chunk of its own (as the macstats CLI does) hands only `default`, so
 * `default` is what is read.
 */
export function loadUndici(): Promise<Undici> {
  loading ??= import('undici').then((module) => module.default);
  return loading;
}
