import type { ToolResult } from '@macstats/core';
import { oneLine } from '@macstats/core/internal';

type Content = Record<string, unknown> & { type?: unknown };

function size(base64: unknown): string {
  if (typeof base64 !== 'string') return 'unknown size';
  const bytes = Math.floor((base64.length * 3) / 4);
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

function describeResource(resource: Record<string, unknown>): string {
  const uri = typeof resource.uri === 'string' ? resource.uri : '(no uri)';
  const mime = typeof resource.mimeType === 'string' ? `, ${resource.mimeType}` : '';
  if (typeof resource.text === 'string') {
    return `[resource ${uri}${mime}, ${resource.text.length} chars] ${oneLine(resource.text, 300)}`;
  }
  return `[resource ${uri}${mime}, ${size(resource.blob)}]`;
}

function describeContent(item: Content): string {
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? item.text : '';
    case 'image':
    case 'audio':
      return `[${item.type} ${typeof item.mimeType === 'string' ? item.mimeType : ''}, ${size(item.data)}]`;
    case 'resource_link': {
      const name = typeof item.name === 'string' ? item.name : 'resource';
      const about = typeof item.description === 'string' ? `: ${oneLine(item.description, 160)}` : '';
      const mime = typeof item.mimeType === 'string' ? `, ${item.mimeType}` : '';
      return `[resource link ${name} <${String(item.uri)}>${mime}${about}]`;
    }
    case 'resource':
      return typeof item.resource === 'object' && item.resource !== null
        ? describeResource(item.resource as Record<string, unknown>)
        : '[resource]';
    default:
      return `[${String(item.type)} content]`;
  }
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

function stringLeaves(value: unknown, leaves: string[]): boolean {
  if (typeof value === 'string') return leaves.push(value) > 0;
  if (Array.isArray(value)) return value.every((item) => stringLeaves(item, leaves));
  if (typeof value === 'object' && value !== null) {
    return Object.values(value).every((item) => stringLeaves(item, leaves));
  }
  return false;
}

// Servers often send the same result twice, as text and as structured content: as the JSON
// text of it, or (the filesystem server) as `{ content: <the text> }`. Show it once.
function repeats(items: Content[], text: string, structured: unknown): boolean {
  if (items.some((item) => item.type === 'text' && sameJson(String(item.text), structured))) return true;
  const leaves: string[] = [];
  return stringLeaves(structured, leaves) && leaves.length > 0 && leaves.every((leaf) => text.includes(leaf));
}

/**
 * A `tools/call` result as text for the model: text content joined, images, audio and
 * resources described in one line each, `structuredContent` as JSON (unless the text
 * already carries it), cut at `maxChars`. An `isError` result stays an error.
 */
export function formatCallResult(
  displayName: string,
  result: { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown },
  maxChars: number,
): ToolResult {
  const items = Array.isArray(result.content) ? (result.content as Content[]) : [];
  const parts = items.map(describeContent).filter((part) => part !== '');
  const structured = result.structuredContent;
  if (structured !== undefined && !repeats(items, parts.join('\n'), structured)) {
    parts.push(JSON.stringify(structured));
  }
  // Servers of protocol 2024-10-07 answer `{ toolResult }` instead of content.
  if (items.length === 0 && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult));
  let text = parts.join('\n').trim();
  if (text.length > maxChars) {
    text = `${text.slice(0, maxChars)}\n[… ${text.length - maxChars} more characters cut]`;
  }
  if (result.isError === true) {
    return {
      isError: true,
      text: `MCP tool "${displayName}" failed: ${text || 'the server gave no reason'}`,
    };
  }
  return { text: text || '(the tool returned no content)' };
}
