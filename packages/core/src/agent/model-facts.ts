import type { ChatModel } from '../model/chat-model.js';
import type { Logger } from '../util/logger.js';
import type { AgentEvent } from './agent-types.js';
import { ContextWindow, type ContextWindowSettings } from './context-window.js';

/** What the agent learns about each model it answers with, asked of the server once per model. */
export interface ModelFacts {
  /** Whether to send native tool definitions to this model (without a wait once known). */
  useNative(forModel: string, signal: AbortSignal | undefined): boolean | Promise<boolean>;
  /** The server refused native tools for this model: the text protocol from now on. */
  refusedNative(forModel: string): void;
  /** Says "loading <model>…" through `emit` when the server reports the model is not in memory. */
  announceLoading(
    forModel: string,
    emit: (event: AgentEvent) => void,
    signal: AbortSignal | undefined,
  ): Promise<void>;
  /** Whether the model reads images; a server that cannot say counts as no. */
  canSeeImages(forModel: string, signal: AbortSignal | undefined): Promise<boolean>;
  /** The model's context window, from its capabilities once they could be read (without a wait once read). */
  contextWindow(forModel: string, signal: AbortSignal | undefined): ContextWindow | Promise<ContextWindow>;
}

/**
 * The model-fact caches of one agent: native tools, vision and the context window, each asked
 * of the model's capabilities once per model and kept once read (a failed read is not kept, so
 * the next answer asks again once the server answers).
 */
export function createModelFacts(
  model: ChatModel,
  settings: { native: boolean | 'auto'; context: ContextWindowSettings; logger: Logger },
): ModelFacts {
  const { native, logger } = settings;
  const contextSettings = settings.context;
  const nativeByModel = new Map<string, boolean>();
  const visionByModel = new Map<string, boolean>();
  const windows = new Map<string, ContextWindow>();

  /**
   * Whether to send native tool definitions to this model: asks its capabilities once per model.
   * Known facts come back without a promise: each await is a turn of the microtask queue, per answer.
   */
  function useNative(forModel: string, signal: AbortSignal | undefined): boolean | Promise<boolean> {
    if (native !== 'auto') return native;
    return nativeByModel.get(forModel) ?? askNative(forModel, signal);
  }

  async function askNative(forModel: string, signal: AbortSignal | undefined): Promise<boolean> {
    try {
      const { tools: hasTools } = await model.capabilities({
        model: forModel,
        ...(signal ? { signal } : {}),
      });
      nativeByModel.set(forModel, hasTools);
      return hasTools;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // Not cached: the server may be down or the model missing; the chat request will say which.
      logger.debug(
        { model: forModel, err: error },
        'could not read model capabilities; using the text protocol',
      );
      return false;
    }
  }

  /**
   * Says "loading <model>…" when the server reports the model is not in memory, so a first answer
   * that waits for the model to load does not look stuck. Asks only servers that can tell.
   */
  async function announceLoading(
    forModel: string,
    emit: (event: AgentEvent) => void,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (!model.isLoaded) return;
    try {
      const loaded = await model.isLoaded({ model: forModel, ...(signal ? { signal } : {}) });
      if (loaded === false) emit({ type: 'status', text: `loading ${forModel}…` });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // The chat request will say what is wrong with the server.
      logger.debug({ model: forModel, err: error }, 'could not ask whether the model is loaded');
    }
  }

  /** Whether a model reads images: asked once per model; a server that cannot say counts as no. */
  async function canSeeImages(forModel: string, signal: AbortSignal | undefined): Promise<boolean> {
    const known = visionByModel.get(forModel);
    if (known !== undefined) return known;
    try {
      const { vision } = await model.capabilities({ model: forModel, ...(signal ? { signal } : {}) });
      visionByModel.set(forModel, vision);
      return vision;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      logger.debug({ model: forModel, err: error }, 'could not read whether the model reads images');
      return false;
    }
  }

  /** The model's context window, from its capabilities once they could be read. */
  function contextWindow(
    forModel: string,
    signal: AbortSignal | undefined,
  ): ContextWindow | Promise<ContextWindow> {
    return windows.get(forModel) ?? readWindow(forModel, signal);
  }

  async function readWindow(forModel: string, signal: AbortSignal | undefined): Promise<ContextWindow> {
    try {
      const { contextLength } = await model.capabilities({ model: forModel, ...(signal ? { signal } : {}) });
      const window = new ContextWindow(contextSettings, contextLength);
      windows.set(forModel, window);
      return window;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // Not kept: the length is read again once the server answers.
      logger.debug({ model: forModel, err: error }, 'could not read the context length; assuming the cap');
      return new ContextWindow(contextSettings, null);
    }
  }

  return {
    useNative,
    refusedNative: (forModel) => nativeByModel.set(forModel, false),
    announceLoading,
    canSeeImages,
    contextWindow,
  };
}
