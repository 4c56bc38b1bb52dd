import { describe, expect, it } from 'vitest';
import { CliError, parseCliArgs } from './cli-args.js';

describe('parseCliArgs', () => {
  it('picks a free port and opens the browser by default', () => {
    expect(parseCliArgs([], {})).toEqual({ port: 0, open: true, help: false });
  });

  it('takes --port and --no-open, and MACSTATS_PORT / MACSTATS_NO_OPEN from the environment', () => {
    expect(parseCliArgs(['--port', '8123', '--no-open'], {})).toEqual({
      port: 8123,
      open: false,
      help: false,
    });
    expect(parseCliArgs([], { MACSTATS_PORT: '9000', MACSTATS_NO_OPEN: '1' })).toMatchObject({
      port: 9000,
      open: false,
    });
  });

  it('refuses a host beyond loopback', () => {
    expect(() => parseCliArgs(['--host', '0.0.0.0'], {})).toThrow(CliError);
    expect(() => parseCliArgs(['--host', '0.0.0.0'], {})).toThrow(/listens on 127\.0\.0\.1 only/);
    expect(parseCliArgs(['--host', 'localhost'], {}).port).toBe(0);
  });

  it('refuses a port that is not a number from 0 to 65535', () => {
    expect(() => parseCliArgs(['--port', '70000'], {})).toThrow(
      'The port "70000" is not a number from 0 to 65535.',
    );
    expect(() => parseCliArgs(['--port', '12ab'], {})).toThrow(CliError);
  });

  it('refuses an unknown option in one sentence', () => {
    expect(() => parseCliArgs(['--open-wide'], {})).toThrow(/--open-wide.*\(see --help\)\.$/);
  });
});
