import { findJsonCalls } from '../parser/json-calls.js';
import { cleanLine, matchCallLine } from '../parser/line-calls.js';
import { stripThinking } from '../parser/quoted-regions.js';

/** Said when the model's last word was only a tool call, or nothing. */
export const NO_ANSWER_TEXT =
  'I could not finish this: the model kept asking for tools instead of answering. Try asking more specifically.';

/** Said when the model replied with nothing at all. */
export const EMPTY_REPLY_TEXT =
  'The model gave an empty reply: try asking again, or choose another model (OLLAMA_MODEL).';

/**
 * The user-facing text of a reply: reasoning blocks removed and, for the final call, any tool
 * call the model still wrote (lines and JSON shapes) taken out, since nothing will run it.
 */
export function finalText(content: string, callNames: readonly string[]): string {
  let text = stripThinking(content);
  const spans = findJsonCalls(text).map((match) => match.span);
  for (const [start, end] of spans.sort((a, b) => b[0] - a[0])) text = text.slice(0, start) + text.slice(end);
  const upper = new Set(callNames.map((name) => name.toUpperCase()));
  text = text
    .split('\n')
    .filter((line) => {
      const call = matchCallLine(cleanLine(line));
      return !(call && (upper.has(call.name.toUpperCase()) || /^[A-Z]+_[A-Z0-9_]+$/.test(call.name)));
    })
    .join('\n')
    .replace(/<\/?(tool_call|tool_calls)>/gi, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text;
}
