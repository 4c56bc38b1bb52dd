export { FAKE_OLLAMA_DEFAULT_MODELS, startFakeOllama } from './fake-ollama.js';
export type {
  FakeChatRequest,
  FakeOllama,
  FakeOllamaFault,
  FakeOllamaModel,
  FakeOllamaOptions,
  FakeOllamaReply,
  FakeRequestRecord,
  FakeToolCall,
} from './fake-ollama-types.js';
