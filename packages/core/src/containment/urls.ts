/** URLs as the containment policy compares them. */

// Absolute http(s) URLs as they appear in text, by the WHATWG URL grammar: a URL runs to the
// first character no URL may hold unescaped (whitespace, `<`, `>`, `"`, a backtick, `{`, `}`,
// `|`, `\\`, `^`, a control character). `)`, `]` and `'` are URL characters: a path may hold them.
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"`{}|\\^\u0000-\u001f\u007f]+/gi;
const TRAILING = /[.,;:!?*_]+$/;

/**
 * The URL as it goes over the wire, for comparison: parsed (host lower-cased, default port and
 * dot segments gone, percent-encoding normalised by WHATWG rules), without its fragment, which
 * is never sent. A bare host (`example.com/a`) is read as https. Undefined when it is no URL.
 */
export function canonicalUrl(text: string, keepFragment = false): string | undefined {
  // The same URLs come back within an answer (the question, each call, each output): a URL parse
  // costs microseconds, a lookup next to nothing.
  return remembered(canonicalCache, keepFragment ? `#${text}` : text, () =>
    parseCanonical(text, keepFragment),
  );
}

/** At most this many entries in each cache below, so a flood of URLs cannot grow them. */
const CACHE_SIZE = 512;
const canonicalCache = new Map<string, string | null>();
const originCache = new Map<string, string | null>();

/** `compute()` for `key`, kept in `cache` (undefined kept as null); the cache is emptied when full. */
function remembered(
  cache: Map<string, string | null>,
  key: string,
  compute: () => string | undefined,
): string | undefined {
  const known = cache.get(key);
  if (known !== undefined) return known ?? undefined;
  const found = compute();
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(key, found ?? null);
  return found;
}

function parseCanonical(text: string, keepFragment: boolean): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return url.href;
    if (!keepFragment) url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/** Every absolute http(s) URL written in a text, canonical (with its fragment when `keepFragment`). */
export function urlsIn(text: string, keepFragment = false): string[] {
  const found: string[] = [];
  // Most texts hold no URL; a result of pages is read on every call. `matchAll` would copy the
  // pattern each time: one pattern, restarted, does the same (nothing here is re-entered).
  if (!text.includes('://')) return found;
  URL_IN_TEXT.lastIndex = 0;
  for (let match = URL_IN_TEXT.exec(text); match; match = URL_IN_TEXT.exec(text)) {
    const canonical = canonicalUrl(trimUrlEnd(match[0]), keepFragment);
    if (canonical) found.push(canonical);
  }
  return found;
}

const CLOSERS: Record<string, string> = { ')': '(', ']': '[', "'": "'" };

/**
 * A URL found in prose without what closes the sentence around it: trailing punctuation, and a
 * `)`, `]` or `'` the URL did not open itself (a Markdown link's `(…)`, a quoted URL). A closer the
 * URL opened (`https://en.wikipedia.org/wiki/Foo_(bar)`) stays.
 */
export function trimUrlEnd(raw: string): string {
  let url = raw;
  for (;;) {
    const last = url.at(-1) ?? '';
    if (/[.,;:!?*_]/.test(last)) {
      url = url.slice(0, -1);
      continue;
    }
    const opener = CLOSERS[last];
    if (opener === undefined) return url;
    const count = (char: string) => url.split(char).length - 1;
    const unbalanced = opener === last ? count(last) % 2 === 1 : count(last) > count(opener);
    if (!unbalanced) return url;
    url = url.slice(0, -1);
  }
}

/**
 * Host-like words the user wrote without a scheme (`example.com`, `example.com/docs`), read as
 * https URLs: a user who says "look at example.com" names that site.
 */
export function bareHostsIn(text: string): string[] {
  const found: string[] = [];
  if (!text.includes('.')) return found;
  BARE_HOST.lastIndex = 0;
  for (let match = BARE_HOST.exec(text); match; match = BARE_HOST.exec(text)) {
    const [, raw = '', last = '', port, path] = match;
    // `plan.md`, `run.sh`, `notes.zip` are files the user named, not sites (`.md`, `.sh` and
    // `.zip` are real top-level domains): a name ending like a file counts only when it clearly
    // is a site, with a path, a port or `www.`.
    if (FILE_EXTENSIONS.has(last.toLowerCase()) && !port && !path && !/^www\./i.test(raw)) continue;
    const canonical = canonicalUrl(raw.replace(TRAILING, ''));
    if (canonical) found.push(canonical);
  }
  return found;
}

const BARE_HOST = /(?<![\w@/.:-])((?:[a-z0-9-]+\.)+([a-z]{2,63})(:\d{1,5})?(\/[^\s<>"'`\])}]*)?)/gi;

/** Endings of file names people write in questions; as a bare name's last label they say "file". */
const FILE_EXTENSIONS = new Set(
  (
    'md mdx txt rst tex log csv tsv json jsonl yaml yml toml ini cfg conf env lock xml html htm css ' +
    'js mjs cjs jsx ts tsx py rb pl pm php lua go rs java kt swift c h cc cpp hpp cs sh bash zsh fish ' +
    'ps1 bat sql ipynb pdf doc docx xls xlsx ppt pptx odt ods key pages numbers png jpg jpeg gif svg ' +
    'webp heic ico psd mp3 mp4 m4a mov avi mkv wav flac zip tar gz tgz bz2 xz zst 7z rar dmg pkg deb ' +
    'rpm exe dll so dylib bin iso img db sqlite bak tmp old orig patch diff plist'
  ).split(' '),
);

/** True when `url` is `named` or lies under it: same origin, and its path continues `named`'s at a segment boundary. */
export function withinUrl(url: string, named: string): boolean {
  if (url === named) return true;
  let target: URL;
  let base: URL;
  try {
    target = new URL(url);
    base = new URL(named);
  } catch {
    return false;
  }
  if (target.origin !== base.origin || base.username || base.password) return false;
  if (base.search !== '') return false; // a URL with a query names that request, nothing under it
  const path = base.pathname;
  if (path === '/' || target.pathname === path) return true;
  const prefix = path.endsWith('/') ? path : `${path}/`;
  return target.pathname.startsWith(prefix);
}

/** The origin of a URL (`https://example.com`), or undefined for a non-web destination. */
export function originOf(url: string): string | undefined {
  // Asked of the same few URLs many times an answer (each send, each result).
  return remembered(originCache, url, () => {
    try {
      const parsed = new URL(url);
      return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
    } catch {
      return undefined;
    }
  });
}
