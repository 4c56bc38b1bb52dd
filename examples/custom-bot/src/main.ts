// A webhook chat bot on @macstats/core. Run: pnpm --filter @macstats/example-custom-bot start
// then: curl -s localhost:8787/message -d '{"user":"ana","channel":"general","text":"What time is it in Tokyo?"}'
import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@macstats/app-config';
import { checkOllama, createAgent, DEFAULT_OLLAMA_HOST } from '@macstats/core';
import { createTimeInTool } from './time-in-tool.js';
import { startWebhookBot } from './webhook-bot.js';

// Apps read the environment; libraries never do. The loader takes env, .config.env, then
// $MACSTATS_HOME/.config.env, and describe() masks secrets so it is safe to log.
const config = loadConfig({ env: process.env, cwd: process.cwd(), home: homedir() });
console.log(config.describe());
for (const warning of config.warnings) console.warn(warning);

const host = config.get('OLLAMA_HOST') ?? DEFAULT_OLLAMA_HOST;
const check = await checkOllama({
  host,
  ...(config.get('OLLAMA_MODEL') ? { model: config.get('OLLAMA_MODEL') } : {}),
});
if (!check.ok || !check.model) {
  console.error(check.problem);
  process.exit(1);
}
console.log(
  `Ollama ${check.version} at ${host}, model ${check.model} (native tools: ${check.tools ? 'yes' : 'no'})`,
);

const agent = createAgent({
  ollama: { host, model: check.model },
  tools: [createTimeInTool()],
  systemPrompt: 'You are a friendly team bot. Keep answers short.',
  memory: { dir: join(config.macstatsHome, 'sessions', 'custom-bot') },
});

const port = Number(config.get('BOT_PORT') ?? 8787);
const server = await startWebhookBot({
  agent,
  port,
  channelPrompts: { support: 'Answer as a patient support agent.' },
  onEvent: (event) => {
    if (event.type === 'tool-call-end')
      console.log(`${event.tool} ${event.argument} (${Math.round(event.durationMs)} ms)`);
    if (event.type === 'llm-call-end' && event.tokensPerSecond)
      console.log(`${event.tokensPerSecond.toFixed(1)} tokens/s`);
  },
});
console.log(`Listening on http://127.0.0.1:${port}/message`);

process.once('SIGINT', async () => {
  server.close();
  await agent.close();
  process.exit(0);
});
