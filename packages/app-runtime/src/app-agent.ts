import { appLinkChoices } from '@macstats/app-config';
import { type Agent, type AgentOptions, createAgent } from '@macstats/core';
import { offeredTo, RUN_JS_UNAVAILABLE } from './tool-catalog.js';

/** Options of {@link createAppAgent}: core's agent options, less what the runtime decides. */
export interface AppAgentOptions
  extends Omit<AgentOptions, 'unavailableTools' | 'linkChoices' | 'telemetry'> {
  /** Every tool the app built: the agent's own are the chat's (each other use's are given per answer). */
  tools: NonNullable<AgentOptions['tools']>;
  /** `MACSTATS_HOME`: where the link choices' daily ledger is kept. */
  home: string;
  /** Prompts, replies and tool text in spans (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`). Default false. */
  recordContent?: boolean | undefined;
}

/**
 * The app's core agent, with the containment settings every app gives it in one place: RUN_JS
 * answered with {@link RUN_JS_UNAVAILABLE} where there is no page (a chat answer in the dashboard
 * lends the page's RUN_JS per answer), and link choices counted per day across restarts
 * (choosing among outside links is a channel; its bits add up).
 */
export function createAppAgent(options: AppAgentOptions): Agent {
  const { home, recordContent, tools, ...agentOptions } = options;
  return createAgent({
    ...agentOptions,
    tools: offeredTo('chat', tools),
    unavailableTools: { RUN_JS: RUN_JS_UNAVAILABLE },
    linkChoices: appLinkChoices(home),
    ...(recordContent ? { telemetry: { recordContent: true } } : {}),
  });
}
