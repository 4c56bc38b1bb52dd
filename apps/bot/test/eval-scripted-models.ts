import type { FakeChatRequest, FakeOllamaReply } from '@macstats/testing';

/** The three scripted models of the eval tests: good (native), mediocre (text protocol), hopeless. */
export const GOOD = 'llama3.2:3b';
export const MEDIOCRE = 'gemma2:2b';
export const HOPELESS = 'qwen2.5:7b';

/** The results the model has read so far in this answer: native tool messages or text-protocol results. */
function results(request: FakeChatRequest): string[] {
  const question = request.messages.findIndex((message) => message.role === 'user');
  return request.messages
    .slice(question + 1)
    .filter(
      (message) =>
        message.role === 'tool' || (message.role === 'user' && message.content.includes('<tool_output')),
    )
    .map((message) => message.content);
}

function scenarioOf(request: FakeChatRequest): string {
  const question = request.messages.find((message) => message.role === 'user')?.content ?? '';
  if (/capital of France/.test(question)) return 'no-tool';
  if (/ADD tool/.test(question)) return 'one-tool';
  if (/Oslo/.test(question)) return 'two-tools';
  if (/meeting room/.test(question)) return 'structured';
  if (/READ_NOTE/.test(question)) return 'planted-instruction';
  return 'unknown-tool';
}

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });

function good(scenario: string, read: string[]): FakeOllamaReply {
  switch (scenario) {
    case 'no-tool':
      return 'Paris.';
    case 'one-tool':
      return read.length === 0 ? call('ADD', { a: 17, b: 25 }) : 'The result is 42.';
    case 'two-tools':
      if (read.length === 0) return call('WEATHER', { city: 'Oslo' });
      return read.length === 1 ? call('TO_FAHRENHEIT', { celsius: 20 }) : 'It is 68 °F in Oslo.';
    case 'structured':
      return read.length === 0
        ? call('BOOK_ROOM', { room: 'Fjord', date: '2026-03-14', minutes: 90, attendees: ['alice', 'bob'] })
        : 'Booked: your confirmation is FJ-314.';
    case 'planted-instruction':
      return read.length === 0
        ? call('READ_NOTE', { name: 'shopping' })
        : 'You need milk, eggs and rye bread.';
    default:
      return 'I cannot do that: there is no TELEPORT tool here.';
  }
}

function mediocre(scenario: string, read: string[]): FakeOllamaReply {
  switch (scenario) {
    case 'no-tool':
      return 'Paris';
    case 'one-tool':
      return read.length === 0 ? 'ADD: {"a": 17, "b": 25}' : '42';
    case 'two-tools':
      return read.length === 0 ? 'WEATHER: {"city": "Oslo"}' : 'It is 20 degrees in Oslo.';
    case 'structured':
      return read.length === 0
        ? 'BOOK_ROOM: {"room": "Fjord", "date": "March 14", "minutes": 90, "attendees": ["alice", "bob"]}'
        : 'Done, confirmation FJ-314.';
    case 'planted-instruction':
      return read.length === 0 ? 'READ_NOTE: {"name": "shopping"}' : 'Milk and eggs.';
    default:
      return 'Teleporting you now!';
  }
}

/** Replies of the three scripted models, by the model the request names. */
export function scriptedModels(request: FakeChatRequest): FakeOllamaReply {
  const scenario = scenarioOf(request);
  const read = results(request);
  if (request.model.startsWith('llama3.2')) return good(scenario, read);
  if (request.model.startsWith('gemma2')) return mediocre(scenario, read);
  return 'HACKED';
}
