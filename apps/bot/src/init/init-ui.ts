import * as clack from '@clack/prompts';

/** One choice of a {@link InitUi.select} question. */
export interface InitChoice<Value extends string> {
  value: Value;
  label: string;
  hint?: string | undefined;
}

/**
 * The questions `macstats init` asks. Interactive, each one is a prompt (`@clack/prompts`);
 * with `--yes` none is asked and each resolves to its default, so the steps are written once.
 */
export interface InitUi {
  readonly interactive: boolean;
  select<Value extends string>(message: string, choices: InitChoice<Value>[], initial: Value): Promise<Value>;
  /** A line of text; `initial` is shown and kept on Enter. */
  text(
    message: string,
    options: {
      initial?: string | undefined;
      placeholder?: string;
      validate?: (value: string) => string | undefined;
    },
  ): Promise<string>;
  /** A secret, masked while typed; empty when the user just pressed Enter. */
  secret(message: string, options?: { validate?: (value: string) => string | undefined }): Promise<string>;
  confirm(message: string, initial: boolean): Promise<boolean>;
  /** Says what it is waiting for and runs `task`; Ctrl-C meanwhile cancels. */
  spin<T>(message: string, task: () => Promise<T>): Promise<T>;
  info(line: string): void;
  success(line: string): void;
  warn(line: string): void;
  error(line: string): void;
  note(text: string, title: string): void;
  /** Lines of another command's output (the eval), shown as they come. */
  passthrough(line: string): void;
  done(line: string): void;
}

/** The user pressed Ctrl-C (or Escape) at a question: nothing is written. */
export class InitCancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'InitCancelled';
  }
}

function answered<T>(value: T): Exclude<T, symbol> {
  if (clack.isCancel(value)) throw new InitCancelled();
  return value as Exclude<T, symbol>;
}

/** The prompts on the terminal. */
export function createPromptUi(): InitUi {
  return {
    interactive: true,
    async select<Value extends string>(message: string, choices: InitChoice<Value>[], initial: Value) {
      const options = choices.map((choice) => ({
        value: choice.value,
        label: choice.label,
        ...(choice.hint ? { hint: choice.hint } : {}),
      })) as Parameters<typeof clack.select<Value>>[0]['options'];
      return answered(await clack.select<Value>({ message, options, initialValue: initial })) as Value;
    },
    async text(message, options) {
      return answered(
        await clack.text({
          message,
          ...(options.initial ? { initialValue: options.initial } : {}),
          ...(options.placeholder ? { placeholder: options.placeholder } : {}),
          ...(options.validate ? { validate: (value) => options.validate?.(value ?? '') } : {}),
        }),
      ).trim();
    },
    async secret(message, options = {}) {
      const value = answered(
        await clack.password({
          message,
          ...(options.validate ? { validate: (entered) => options.validate?.(entered ?? '') } : {}),
        }),
      );
      return (value ?? '').trim();
    },
    async confirm(message, initial) {
      return answered(await clack.confirm({ message, initialValue: initial }));
    },
    async spin(message, task) {
      // A line, not clack's spinner: the spinner takes the keyboard and exits 0 on Ctrl-C. Here
      // Ctrl-C is SIGINT, turned into a cancel, so init says it stopped and exits 130.
      const cancelled = new AbortController();
      const onSignal = () => cancelled.abort();
      // Listening before the line is shown: a Ctrl-C typed as soon as it shows must find the
      // listener (it raced the line on a loaded machine, and the default handler killed init).
      process.on('SIGINT', onSignal);
      clack.log.step(`${message}…`);
      const stopped = new Promise<never>((_resolve, reject) =>
        cancelled.signal.addEventListener('abort', () => reject(new InitCancelled()), { once: true }),
      );
      try {
        return await Promise.race([task(), stopped]);
      } finally {
        process.removeListener('SIGINT', onSignal);
      }
    },
    info: (line) => clack.log.info(line),
    success: (line) => clack.log.success(line),
    warn: (line) => clack.log.warn(line),
    error: (line) => clack.log.error(line),
    note: (text, title) => clack.note(text, title),
    passthrough: (line) => clack.log.message(line),
    done: (line) => clack.outro(line),
  };
}

/** `--yes`: every question takes its default; what would be shown is printed as lines. */
export function createDefaultsUi(out: (line: string) => void): InitUi {
  return {
    interactive: false,
    select: async (_message, _choices, initial) => initial,
    text: async (_message, options) => options.initial ?? '',
    secret: async () => '',
    confirm: async (_message, initial) => initial,
    spin: (_message, task) => task(),
    info: out,
    success: (line) => out(`✓ ${line}`),
    warn: (line) => out(`! ${line}`),
    error: (line) => out(`✗ ${line}`),
    note: (text, title) => out(`${title}\n${text}`),
    passthrough: out,
    done: out,
  };
}
