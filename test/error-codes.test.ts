import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  constructedDirectly,
  declaredCodes,
  errorOwners,
  matchedElsewhere,
  undocumented,
} from './error-codes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const owners = errorOwners(root);

describe('error codes', () => {
  it('are thrown by the packages this test reads', () => {
    expect(owners.map((owner) => owner.folder)).toContain('packages/core');
  });

  it.each(owners.map((owner) => [owner.folder, owner] as const))(
    'each one %s throws is documented in its README',
    (_folder, owner) => {
      expect(undocumented(owner)).toEqual([]);
    },
  );

  it.each(
    owners
      .filter((owner) => owner.folder.startsWith('packages/'))
      .map((owner) => [owner.folder, owner] as const),
  )('each one %s throws is in the code union it exports', (_folder, owner) => {
    const declared = declaredCodes(root, owner);
    expect([...owner.thrown.keys()].filter((code) => !declared.has(code)).sort()).toEqual([]);
  });

  it('are never matched by their spelling outside the package that throws them', () => {
    expect(matchedElsewhere(root, owners)).toEqual([]);
  });

  it('spell a bad option one way', () => {
    const spellings = owners.flatMap((owner) =>
      [...owner.thrown.keys()].filter((code) => /BAD_OPTION|INVALID_OPTIONS|_OPTION$/.test(code)),
    );
    expect([...new Set(spellings)]).toEqual(['INVALID_OPTION']);
  });

  // The compiler checks a code only when it goes through its package's maker (`errorFactory`);
  // core's test/error-factory.types.ts proves the check. This is the backstop.
  it('are made through each package’s maker, never by constructing MacstatsError', () => {
    expect(
      constructedDirectly(root).filter((place) => !PENDING.some((folder) => place.startsWith(folder))),
    ).toEqual([]);
  });
});
