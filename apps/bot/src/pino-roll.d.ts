// pino-roll ships no types; this is the part of its API the logger uses.
declare module 'pino-roll' {
  import type { DestinationStream } from 'pino';

  interface PinoRollOptions {
    file: string;
    size?: string | number;
    frequency?: string | number;
    extension?: string;
    mkdir?: boolean;
    /** sonic-boom's: the mode each new log file is created with. */
    mode?: number;
    limit?: { count?: number; removeOtherLogFiles?: boolean };
  }
  export default function pinoRoll(
    options: PinoRollOptions,
  ): Promise<DestinationStream & NodeJS.EventEmitter & { end(): void }>;
}
