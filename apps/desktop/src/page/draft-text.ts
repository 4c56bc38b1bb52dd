/**
 * The part of a streaming draft worth showing: a reasoning block (`<think>…</think>`, or one
 * still open at the end) is taken out, as the finished answer will not have it either.
 */
export function visibleDraft(draft: string): string {
  return draft.replace(/<think>[\s\S]*?(?:<\/think>|$)/gi, '').replace(/^\s+/, '');
}
