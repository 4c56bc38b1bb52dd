import type { ModelMessage, ModelToolDefinition } from '@macstats/core';
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';

/** The media type of a base64 image, read from its first bytes; PNG when unknown. */
function imageType(base64: string): string {
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('R0lGOD')) return 'image/gif';
  if (base64.startsWith('UklGR')) return 'image/webp';
  return 'image/png';
}

/**
 * Core's messages in the chat-completions shape. Native calls without a server id get one
 * (`call_<n>`), and a tool message without `toolCallId` answers the oldest call not yet
 * answered, because OpenAI-compatible servers pair results with calls by id.
 */
export function toOpenAiMessages(messages: readonly ModelMessage[]): ChatCompletionMessageParam[] {
  const unanswered: string[] = [];
  let made = 0;
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user': {
        if (!message.images || message.images.length === 0) return { role: 'user', content: message.content };
        const parts: ChatCompletionContentPart[] = [
          { type: 'text', text: message.content },
          ...message.images.map((image) => ({
            type: 'image_url' as const,
            image_url: { url: `data:${imageType(image)};base64,${image}` },
          })),
        ];
        return { role: 'user', content: parts };
      }
      case 'assistant': {
        if (!message.toolCalls || message.toolCalls.length === 0)
          return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          content: message.content === '' ? null : message.content,
          tool_calls: message.toolCalls.map((call) => {
            const id = call.id ?? `call_${++made}`;
            unanswered.push(id);
            return {
              id,
              type: 'function' as const,
              function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
            };
          }),
        };
      }
      default: {
        // role 'tool': the result of a native call
        const id = message.toolCallId ?? unanswered[0] ?? `call_${++made}`;
        const at = unanswered.indexOf(id);
        if (at >= 0) unanswered.splice(at, 1);
        return { role: 'tool', tool_call_id: id, content: message.content };
      }
    }
  });
}

/** Core's tool definitions as chat-completions functions. */
export function toOpenAiTools(definitions: readonly ModelToolDefinition[]): ChatCompletionTool[] {
  return definitions.map((definition) => ({
    type: 'function',
    function: {
      name: definition.name,
      description: definition.description,
      parameters: definition.parameters as Record<string, unknown>,
    },
  }));
}
