// Loaded into the bot by the fault soak (`node --import`): while the file named by
// MACSTATS_SOAK_DISK_FULL_FLAG exists, every write to a file whose path contains
// `scheduler-state.json` (the scheduler's temp file included) fails with ENOSPC, as on a full
// disk. Each refused write adds a line to `<flag>.hits`, so the soak can show the fault hit.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const flag = process.env.MACSTATS_SOAK_DISK_FULL_FLAG;
const target = /scheduler-state\.json/;

if (flag) {
  const { open, close, write, appendFileSync, existsSync } = fs;
  const tracked = new Set();
  fs.open = function patchedOpen(path, ...rest) {
    const callback = rest.at(-1);
    if (typeof path === 'string' && target.test(path) && typeof callback === 'function') {
      rest[rest.length - 1] = (error, fd) => {
        if (!error) tracked.add(fd);
        callback(error, fd);
      };
    }
    return open.call(this, path, ...rest);
  };
  fs.close = function patchedClose(fd, ...rest) {
    tracked.delete(fd);
    return close.call(this, fd, ...rest);
  };
  fs.write = function patchedWrite(fd, ...rest) {
    const callback = rest.at(-1);
    if (tracked.has(fd) && typeof callback === 'function' && existsSync(flag)) {
      appendFileSync(`${flag}.hits`, `${new Date().toISOString()}\n`);
      const error = Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        errno: -28,
        syscall: 'write',
      });
      process.nextTick(callback, error);
      return;
    }
    return write.call(this, fd, ...rest);
  };
  syncBuiltinESMExports();
}
