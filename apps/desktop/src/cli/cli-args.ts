import { parseArgs } from 'node:util';

/** What the command line asked for. */
export interface CliArgs {
  /** 0 picks a free port. */
  port: number;
  open: boolean;
  help: boolean;
}

/** A command line that cannot be honoured; the message is the one sentence to print. */
export class CliError extends Error {}

/** The usage text of `npm start -- --help`. */
export const USAGE = `Usage: npm start -- [--port <number>] [--no-open]

  --port <number>  port on 127.0.0.1 (default: MACSTATS_PORT, else a free one)
  --no-open        print the URL without opening the browser (also MACSTATS_NO_OPEN=1)
  --host <addr>    only 127.0.0.1 or localhost: the dashboard never listens beyond loopback
`;

const LOOPBACK = new Set(['127.0.0.1', 'localhost']);

/** Parses the arguments after `main.js`; environment values are the defaults. */
export function parseCliArgs(argv: string[], env: Record<string, string | undefined>): CliArgs {
  let values: {
    port?: string | undefined;
    'no-open'?: boolean | undefined;
    host?: string | undefined;
    help?: boolean | undefined;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'no-open': { type: 'boolean' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CliError(`${(error as Error).message.split('\n')[0]} (see --help).`);
  }
  if (values.host !== undefined && !LOOPBACK.has(values.host.trim().toLowerCase())) {
    throw new CliError(
      `--host ${values.host} is refused: the dashboard listens on 127.0.0.1 only, because it can run tools on this computer.`,
    );
  }
  const portText = values.port ?? env['MACSTATS_PORT'] ?? '0';
  const port = Number(portText);
  if (!/^\d+$/.test(portText.trim()) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError(`The port "${portText}" is not a number from 0 to 65535.`);
  }
  const noOpenEnv = ['1', 'true', 'yes', 'on'].includes((env['MACSTATS_NO_OPEN'] ?? '').trim().toLowerCase());
  return { port, open: !(values['no-open'] === true || noOpenEnv), help: values.help === true };
}
