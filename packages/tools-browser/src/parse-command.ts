/** One thing the BROWSER tool is asked to do. */
export type BrowserAction =
  | { action: 'open'; url: string }
  | { action: 'click'; ref: string }
  | { action: 'type'; ref: string; text: string }
  | { action: 'select'; ref: string; option: string }
  | { action: 'press'; key: string }
  | { action: 'scroll'; direction: 'up' | 'down' }
  | { action: 'back' }
  | { action: 'tabs'; index?: number }
  | { action: 'wait'; text: string }
  | { action: 'screenshot' }
  | { action: 'read' };

/** The action names, in the order the usage line lists them. */
export const BROWSER_ACTIONS = [
  'open',
  'click',
  'type',
  'select',
  'press',
  'scroll',
  'back',
  'tabs',
  'wait',
  'screenshot',
  'read',
] as const;

const USAGE =
  'write BROWSER: open <url>, click <ref>, type <ref> <text>, select <ref> <option>, press <key>, ' +
  'scroll down|up, back, tabs [n], wait for <text>, screenshot or read';

/** `e12`, `f1e3` (an element in a frame), with or without brackets or `ref=`. */
const REF = /^\[?(?:ref=)?([a-z]\d+(?:e\d+)?)\]?$/i;

/**
 * Reads a call: the structured arguments when the model wrote an object, else the text form
 * (`open https://…`, `click e12`, `type e7 "hello"`). Returns the action, or one sentence saying
 * what was wrong.
 */
export function parseCommand(argument: string, args?: Record<string, unknown>): BrowserAction | string {
  if (args && typeof args.action === 'string') return fromObject(args);
  const line = argument.trim();
  const space = line.search(/\s/);
  const verb = (space === -1 ? line : line.slice(0, space)).toLowerCase();
  const rest = space === -1 ? '' : line.slice(space + 1).trim();
  if (/^(?:https?:\/\/|www\.)/i.test(line)) return open(line);
  switch (verb) {
    case 'open':
    case 'goto':
    case 'navigate':
      return open(rest);
    case 'click':
      return withRef(rest, (ref) => ({ action: 'click', ref }));
    case 'type':
    case 'fill':
      return withRef(rest, (ref, text) => ({ action: 'type', ref, text: unquote(text) }));
    case 'select':
      return withRef(rest, (ref, option) =>
        option
          ? { action: 'select', ref, option: unquote(option) }
          : 'select needs an option, as in select e4 "Blue"',
      );
    case 'press':
      return rest
        ? { action: 'press', key: normaliseKey(unquote(rest)) }
        : 'press needs a key, as in press Enter';
    case 'scroll':
      return { action: 'scroll', direction: /^up\b/i.test(rest) ? 'up' : 'down' };
    case 'back':
      return { action: 'back' };
    case 'tabs':
    case 'tab':
      return /^\d+$/.test(rest) ? { action: 'tabs', index: Number(rest) } : { action: 'tabs' };
    case 'wait': {
      const text = unquote(rest.replace(/^for\s+/i, ''));
      return text ? { action: 'wait', text } : 'wait needs a text, as in wait for "Results"';
    }
    case 'screenshot':
      return { action: 'screenshot' };
    case 'read':
    case 'snapshot':
      return { action: 'read' };
    default:
      return `"${verb || line}" is not a BROWSER action; ${USAGE}.`;
  }
}

function fromObject(args: Record<string, unknown>): BrowserAction | string {
  const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string) : '');
  const action = text('action').toLowerCase();
  switch (action) {
    case 'open':
      return open(text('url'));
    case 'click':
    case 'type':
    case 'select': {
      const ref = REF.exec(text('ref').trim())?.[1];
      if (!ref) return `${action} needs the ref of an element from the page text, as in e12`;
      if (action === 'click') return { action, ref };
      if (action === 'type') return { action, ref, text: text('text') };
      return text('text') ? { action, ref, option: text('text') } : 'select needs the option in text';
    }
    case 'press':
      return text('key') || text('text')
        ? { action, key: normaliseKey(text('key') || text('text')) }
        : 'press needs a key';
    case 'scroll':
      return { action, direction: text('direction') === 'up' ? 'up' : 'down' };
    case 'tabs':
      return typeof args.index === 'number' ? { action, index: args.index } : { action };
    case 'wait':
      return text('text') ? { action, text: text('text') } : 'wait needs a text';
    case 'back':
    case 'screenshot':
    case 'read':
      return { action };
    default:
      return `"${action}" is not a BROWSER action; ${USAGE}.`;
  }
}

function open(target: string): BrowserAction | string {
  const url = unquote(target.split(/\s+/)[0] ?? '').replace(/[.,;)]+$/, '');
  if (url === '') return 'open needs a URL, as in open https://example.com/';
  return { action: 'open', url };
}

function withRef(
  rest: string,
  make: (ref: string, remainder: string) => BrowserAction | string,
): BrowserAction | string {
  const space = rest.search(/\s/);
  const word = space === -1 ? rest : rest.slice(0, space);
  const ref = REF.exec(word)?.[1];
  if (!ref)
    return `"${word}" is not an element reference; use the one in square brackets in the page text, as in e12`;
  return make(ref, space === -1 ? '' : rest.slice(space + 1).trim());
}

function unquote(text: string): string {
  const trimmed = text.trim();
  const match = /^(["'“”‘’`])([\s\S]*)(["'“”‘’`])$/.exec(trimmed);
  return match ? (match[2] ?? '') : trimmed;
}

/** `enter` → `Enter`, `ctrl+a` → `Control+a`: the key names Playwright knows. */
function normaliseKey(key: string): string {
  const names: Record<string, string> = {
    enter: 'Enter',
    return: 'Enter',
    tab: 'Tab',
    escape: 'Escape',
    esc: 'Escape',
    space: 'Space',
    backspace: 'Backspace',
    delete: 'Delete',
    arrowdown: 'ArrowDown',
    arrowup: 'ArrowUp',
    arrowleft: 'ArrowLeft',
    arrowright: 'ArrowRight',
    pagedown: 'PageDown',
    pageup: 'PageUp',
    ctrl: 'Control',
    control: 'Control',
    shift: 'Shift',
    alt: 'Alt',
    meta: 'Meta',
  };
  return key
    .split('+')
    .map((part) => names[part.trim().toLowerCase()] ?? part.trim())
    .join('+');
}
