import { spawn } from 'node:child_process';

/**
 * Opens a URL in the default browser, without waiting and without failing: a machine with no
 * browser or no display just keeps the printed URL. Returns false when it did not try.
 */
export function openBrowser(url: string, env: Record<string, string | undefined> = process.env): boolean {
  const platform = process.platform;
  let command: string;
  let args: string[];
  if (platform === 'darwin') [command, args] = ['open', [url]];
  else if (platform === 'win32') [command, args] = ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  else {
    if (!env['DISPLAY'] && !env['WAYLAND_DISPLAY']) return false;
    [command, args] = ['xdg-open', [url]];
  }
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
