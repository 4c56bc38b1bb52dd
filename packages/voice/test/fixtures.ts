import { readFileSync } from 'node:fs';

/** A committed fixture's bytes (see `fixtures/README.md`). */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
}

/** The sentence a fixture speaks. */
export function fixtureText(name: string): string {
  return readFileSync(
    new URL(`./fixtures/${name.replace(/\.(ogg|webm)$/, '.txt')}`, import.meta.url),
    'utf8',
  ).trim();
}
