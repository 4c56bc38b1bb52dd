/**
 * Splits an answer into what is spoken (at most `maxChars`, ending at a sentence boundary when
 * there is one, else at a word) and the rest, which the caller posts as text. Markdown that would
 * be read aloud as symbols is removed from the spoken part: code blocks (said as "code in the
 * text"), link targets, emphasis and heading marks.
 *
 * @example
 * splitForSpeech('One. Two. Three.', 9); // { spokenText: 'One. Two.', restText: 'Three.' }
 */
export function splitForSpeech(text: string, maxChars: number): { spokenText: string; restText: string } {
  const trimmed = text.trim();
  if (trimmed.length <= maxChars) return { spokenText: speakable(trimmed), restText: '' };
  const head = trimmed.slice(0, maxChars + 1);
  // The last sentence end (. ! ? or a paragraph break) followed by a space, in the allowed length.
  let cut = -1;
  for (const match of head.matchAll(/[.!?…](?=\s)|\n\s*\n/g))
    if (match.index + 1 <= maxChars) cut = match.index + 1;
  if (cut <= 0) cut = head.lastIndexOf(' ', maxChars);
  if (cut <= 0) cut = maxChars;
  return { spokenText: speakable(trimmed.slice(0, cut).trim()), restText: trimmed.slice(cut).trim() };
}

/** Text with the Markdown a voice would read as symbols taken out. */
export function speakable(text: string): string {
  return text
    .replace(/```[\s\S]*?(```|$)/g, ' (code in the text) ')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/https?:\/\/[^\s)]*[^\s).,!?;:]/g, 'a link')
    .replace(/^\s{0,3}(#{1,6}|[-*+]|>)\s+/gm, '')
    .replace(/(\*\*|__|\*|~~)(?=\S)([^*_~]+?)\1/g, '$2')
    .replace(/[ \t]+/g, ' ')
    .trim();
}
