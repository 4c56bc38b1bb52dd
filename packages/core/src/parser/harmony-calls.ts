import { rawCall } from './json-values.js';
import type { CallRecogniser, FoundCalls } from './recogniser.js';
import { tryParse } from './values.js';

const TOKEN = /<\|(start|end|call|return|message|channel)\|>/g;
const NOT_TOOLS = new Set(['assistant', 'user', 'system', 'developer']);

/**
 * gpt-oss (OpenAI harmony): a message whose header names a recipient is a call —
 * `<|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>`
 * (the recipient may also come before `<|channel|>`), on the `commentary` channel or, as gpt-oss
 * also writes them, on `analysis`. An analysis message without a recipient is reasoning and never
 * read (see `stripThinking`); `functions.` is dropped from the name.
 */
function findHarmonyCalls(text: string): FoundCalls[] {
  const found: FoundCalls[] = [];
  let headerStart = 0;
  let message: { header: string; bodyStart: number; start: number } | null = null;
  const close = (bodyEnd: number) => {
    if (!message) return;
    const recipient = /\bto=([\w.-]+)/.exec(message.header)?.[1];
    if (recipient && !NOT_TOOLS.has(recipient)) {
      const body = text.slice(message.bodyStart, bodyEnd).trim();
      const parsed = body.startsWith('{') ? tryParse(body) : undefined;
      const calls = rawCall(recipient.replace(/^functions\./, ''), parsed ?? body);
      if (calls.length > 0) found.push({ start: message.start, end: bodyEnd, calls });
    }
    message = null;
  };
  TOKEN.lastIndex = 0;
  for (let token = TOKEN.exec(text); token; token = TOKEN.exec(text)) {
    const kind = token[1] as string;
    if (kind === 'message') {
      close(token.index);
      const bodyStart = token.index + token[0].length;
      message = { header: text.slice(headerStart, token.index), bodyStart, start: headerStart };
      headerStart = bodyStart;
    } else if (message) {
      close(token.index);
      headerStart = kind === 'channel' || kind === 'start' ? token.index : token.index + token[0].length;
    } else if (kind !== 'channel') {
      // A header starts at <|start|> or after a message's end; `to=` may come before <|channel|>.
      headerStart = kind === 'start' ? token.index : token.index + token[0].length;
    }
  }
  close(text.length);
  return found;
}

/** The harmony reader. */
export const HARMONY_RECOGNISER: CallRecogniser = {
  format: 'harmony',
  markers: ['<|message|>'],
  find: findHarmonyCalls,
};
