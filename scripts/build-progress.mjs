// `npm start`'s build with a line per package as it starts ("building @macstats/core (3 of 22)"),
// instead of a minute of silence; a package that fails prints its whole output.
import { spawn } from 'node:child_process';

/**
 * Runs `command args` (turbo with `--output-logs=full`), printing one line per package it builds
 * and the output of each that fails. Resolves with the exit code.
 */
export function buildWithProgress(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const logs = new Map();
    let total = '?';
    let pending = '';
    const take = (chunk) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const count = /Running build in (\d+) packages/.exec(line);
        if (count) total = count[1];
        const task = /^(@?[\w./-]+):build: ?(.*)$/.exec(line);
        if (!task) continue;
        const [, name, text] = task;
        if (!logs.has(name)) {
          logs.set(name, []);
          console.log(`building ${name} (${logs.size} of ${total})`);
        }
        logs.get(name).push(text);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => {
      console.error(`Could not run the build: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code) => {
      if (code !== 0) {
        for (const [name, lines] of logs)
          if (lines.some((line) => /error|ERR_|failed/i.test(line)))
            console.error(`\n${name} failed:\n${lines.join('\n')}`);
      }
      resolve(code ?? 1);
    });
  });
}
