const MAX_SHOWN = 80;
// C0 controls, DEL, C1 controls, and the bidirectional and zero-width format characters that can
// make a message read differently from what it holds.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * Shows part of the model's input inside a message: control and bidirectional characters as
 * `\u{…}` escapes, and anything past 80 characters cut with a note of the full length.
 */
export function showPart(text: string): string {
  const characters = Array.from(text);
  const cut = characters.length > MAX_SHOWN;
  const shown = (cut ? characters.slice(0, MAX_SHOWN).join('') : text).replace(
    UNSAFE,
    (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`,
  );
  return cut ? `${shown}… (${characters.length} characters)` : shown;
}
