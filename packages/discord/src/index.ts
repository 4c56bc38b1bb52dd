export type { DiscordAgents } from './bot-feature-options.js';
export type { ChannelConfig, ChannelMode, ChannelSettings } from './channel-settings.js';
export { parseChannelSettings } from './channel-settings.js';
export { DISCORD_BOT_DEFAULTS } from './defaults.js';
export { createDiscordBot } from './discord-bot.js';
export { type DiscordErrorCode, isLoginRefused } from './discord-errors.js';
export { type DiscordRememberedMessages, FORGET_LIMIT } from './forget-command.js';
export { MIN_SPLIT_LIMIT, splitMessage } from './split-message.js';
export type { DiscordTaskRequest, DiscordTasks } from './task-command.js';
export type {
  DiscordBot,
  DiscordBotEvent,
  DiscordBotOptions,
  OwnerApprovalAnswer,
  OwnerApprovalRequest,
} from './types.js';
export type {
  DiscordAudio,
  DiscordSpeak,
  DiscordSpeech,
  DiscordTranscribe,
  DiscordVoiceOptions,
  SpeakReplies,
  TranscriptBudget,
  TranscriptTokens,
} from './voice-options.js';
