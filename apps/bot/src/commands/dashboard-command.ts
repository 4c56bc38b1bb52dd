import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** What `macstats dashboard` passes on to the dashboard. */
export interface DashboardCommandOptions {
  /** Port on 127.0.0.1; unset: `MACSTATS_PORT`, else a free one. */
  port?: number;
  /** False prints the URL without opening the browser. */
  open: boolean;
}

/**
 * Runs the dashboard (the desktop app's server and page, shipped in `dist/dashboard` by the
 * build) in this process, with the arguments its own command line takes. Resolves with its exit
 * code once it has stopped (it stops itself on SIGINT or SIGTERM).
 */
export async function dashboardCommand(options: DashboardCommandOptions): Promise<number> {
  const main = new URL('./dashboard/main.js', import.meta.url);
  const mainPath = fileURLToPath(main);
  if (!existsSync(mainPath)) {
    process.stderr.write(
      'macstats: the dashboard is not part of this build; run `turbo run build --filter=@macstats/cli...`\n',
    );
    return 1;
  }
  const args = [
    ...(options.port === undefined ? [] : ['--port', String(options.port)]),
    ...(options.open ? [] : ['--no-open']),
  ];
  // The dashboard reads its arguments from process.argv, as it does when started on its own.
  process.argv = [process.argv[0] ?? process.execPath, mainPath, ...args];
  await import(main.href);
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}
