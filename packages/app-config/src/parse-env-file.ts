/** What {@link parseEnvFile} read. */
export interface ParsedEnvFile {
  values: Record<string, string>;
  /** One sentence per line that could not be read, with its line number. */
  warnings: string[];
}

const KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\', $: '$' };

function readDoubleQuoted(text: string): { value: string; rest: string } | null {
  let value = '';
  for (let index = 1; index < text.length; index++) {
    const char = text[index] as string;
    if (char === '\\' && index + 1 < text.length) {
      const next = text[++index] as string;
      value += ESCAPES[next] ?? `\\${next}`;
    } else if (char === '"') return { value, rest: text.slice(index + 1) };
    else value += char;
  }
  return null;
}

/**
 * Parses a `.config.env` file: `KEY=value` lines, optional `export `, `#` comments (whole-line,
 * and after an unquoted value when a space precedes the `#`), single quotes (literal) and double
 * quotes (with `\n`, `\t`, `\"`, `\\` escapes). A later line wins over an earlier one for the same
 * key. Lines it cannot read are reported in `warnings`, never thrown.
 */
export function parseEnvFile(text: string, fileName = '.config.env'): ParsedEnvFile {
  const values: Record<string, string> = {};
  const warnings: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `${fileName}:${index + 1}`;
    const body = line.replace(/^export\s+/, '');
    const equals = body.indexOf('=');
    const key = equals > 0 ? body.slice(0, equals).trim() : '';
    if (!KEY.test(key)) {
      warnings.push(`${where}: not a KEY=value line; ignored.`);
      return;
    }
    const rest = body.slice(equals + 1).trim();
    if (rest.startsWith('"') || rest.startsWith("'")) {
      const quoted =
        rest[0] === '"'
          ? readDoubleQuoted(rest)
          : rest.indexOf("'", 1) > 0
            ? { value: rest.slice(1, rest.indexOf("'", 1)), rest: rest.slice(rest.indexOf("'", 1) + 1) }
            : null;
      if (!quoted) {
        warnings.push(`${where}: the value of ${key} has no closing quote; ignored.`);
        return;
      }
      const after = quoted.rest.trim();
      if (after !== '' && !after.startsWith('#'))
        warnings.push(`${where}: text after the quoted value of ${key} ignored.`);
      values[key] = quoted.value;
      return;
    }
    values[key] = rest.replace(/\s+#.*$/, '').trim();
  });
  return { values, warnings };
}
