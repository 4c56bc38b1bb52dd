import { createRequire } from 'node:module';

// yaml is required at the first front matter read: a home without skills never holds it.
const require = createRequire(import.meta.url);
const yaml = () => require('yaml') as typeof import('yaml');

/** A markdown file's YAML front matter and the text after it. */
export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
}

/**
 * Splits `---` YAML front matter from a markdown file's body. Returns one sentence (without the
 * file's name) when there is none or it is not a YAML mapping.
 *
 * @example
 * readFrontMatter('---\nname: notes\ndescription: Keeps notes.\n---\nWrite them down.');
 * // { data: { name: 'notes', description: 'Keeps notes.' }, body: 'Write them down.' }
 */
export function readFrontMatter(text: string): FrontMatter | { problem: string } {
  const source = text.replace(/^\uFEFF/, '');
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(source);
  if (!match) return { problem: 'has no front matter (it must start with a --- line, then YAML, then ---)' };
  let data: unknown;
  try {
    data = yaml().parse(match[1] ?? '', { maxAliasCount: 10 });
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return { problem: `has front matter that is not valid YAML (${reason})` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { problem: 'has front matter that is not a list of keys and values' };
  return { data: data as Record<string, unknown>, body: source.slice(match[0].length).trim() };
}
