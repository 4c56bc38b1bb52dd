import type { ToolResult } from '@macstats/core';

type Content = Record<string, unknown> & { type?: unknown };

function size(base64: unknown): string {
  if (typeof base64 !== 'string') return 'unknown size';
  const bytes = Math.floor((base64.length * 3) / 4);
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

function oneLine(text: string, maxChars: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > maxChars ? `${line.slice(0, maxChars)}…` : line;
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

/**
 * A `tools/call` result as text for the model: text content joined, images, audio and
 * resources described in one line each, `structuredContent` as JSON (unless a text item
 * already carries the same JSON), cut at `maxChars`. An `isError` result stays an error.
 */
export function formatCallResult(
  displayName: string,
  result: { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown },
  maxChars: number,
): ToolResult {
  const items = Array.isArray(result.content) ? (result.content as Content[]) : [];
  const parts = items.map(describeContent).filter((part) => part !== '');
  const structured = result.structuredContent;
  if (
    structured !== undefined &&
    !items.some((item) => item.type === 'text' && sameJson(String(item.text), structured))
  ) {
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
