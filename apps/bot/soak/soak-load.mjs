// The fault soak's world: the fake Ollama's answers (which the soak can kill and restart on the
// same port, mid-answer) and the steady message load sent through the fake Discord.
import { startFakeOllama } from '@macstats/testing';

/** The text of every scheduled task, so the fake model can tell them from questions. */
export const SCHEDULED_TASK = 'Soak scheduled task';

/** The messages after the last question: tool results of the current turn. */
function currentTurn(request) {
  const messages = request.messages;
  let last = -1;
  messages.forEach((message, index) => {
    if (message.role === 'user') last = index;
  });
  return { question: messages[last]?.content ?? '', after: messages.slice(last + 1) };
}

/**
 * A fake Ollama whose answers name the message they answer (`#m12`), call the MCP echo tool
 * for questions that ask for it, and number scheduled results. `killMidAnswer()` closes it
 * while a reply is being written and starts it again on the same port.
 */
export async function startModel(log) {
  let scheduled = 0;
  let pendingKill;
  let server;
  const reply = (request) => {
    const { question, after } = currentTurn(request);
    if (pendingKill) {
      const kill = pendingKill;
      pendingKill = undefined;
      setTimeout(kill, 80);
    }
    if (question.includes(SCHEDULED_TASK)) {
      scheduled += 1;
      return { content: `Scheduled result ${scheduled}.`, delayMs: 100 };
    }
    const token = /#m\d+/.exec(question)?.[0] ?? 'no token';
    const tool = after.find((message) => message.role === 'tool');
    if (/echo/i.test(question) && !tool) {
      const name = request.tools?.find((candidate) => /echo/.test(candidate.function.name))?.function.name;
      return {
        toolCalls: [{ name: name ?? 'echo-not-offered', arguments: { message: token } }],
        delayMs: 100,
      };
    }
    const content = tool
      ? `Echo result for ${token}: ${String(tool.content).slice(0, 60)}`
      : `Answer to ${token}: all is well here, thank you for asking.`;
    return { content, delayMs: 200 + Math.floor(Math.random() * 300), chunkDelayMs: 25 };
  };
  server = await startFakeOllama({ reply });
  const port = Number(new URL(server.url).port);
  return {
    url: server.url,
    /** Closes the fake while an answer is on its way (or after 10 s without one) and restarts it after `downMs`. */
    killMidAnswer(downMs) {
      return new Promise((resolve) => {
        let midAnswer = true;
        const kill = async () => {
          clearTimeout(fallback);
          await server.close();
          log(`ollama closed${midAnswer ? ' mid-answer' : ' (no answer was under way)'}`);
          await new Promise((wait) => setTimeout(wait, downMs));
          server = await startFakeOllama({ reply, port });
          resolve({ midAnswer });
        };
        const fallback = setTimeout(() => {
          pendingKill = undefined;
          midAnswer = false;
          void kill();
        }, 10_000);
        pendingKill = kill;
      });
    },
    close: () => server.close(),
  };
}

/**
 * The message load: one message every `everyMs` through the fake Discord, rotating between a DM,
 * a mention in a guild channel and a DM asking for the MCP echo tool, from five users. Each
 * message carries a unique `#m<n>` token. `hold()` pauses it (while a refused resume is set up).
 */
export function startMessageLoad(discord, { everyMs, channelId }) {
  const sent = [];
  let holds = 0;
  let count = 0;
  const timer = setInterval(() => {
    if (holds > 0) return;
    count += 1;
    const token = `#m${count}`;
    const author = { username: `soak-user-${count % 5}` };
    const kind = ['dm', 'mention', 'echo'][count % 3];
    const message =
      kind === 'mention'
        ? discord.dispatchMessage({
            content: `Question ${token}: how are things?`,
            channelId,
            mentionsBot: true,
            author,
          })
        : discord.dispatchMessage({
            content:
              kind === 'echo'
                ? `Please echo ${token} with the MCP server.`
                : `Question ${token}: how are things?`,
            dm: true,
            author,
          });
    sent.push({ token, kind, id: message.id, channelId: message.channelId, at: Date.now() });
  }, everyMs);
  return {
    sent,
    hold() {
      holds += 1;
      return () => {
        holds -= 1;
      };
    },
    stop: () => clearInterval(timer),
  };
}

/** The bot's replies to one message that are still up (status messages are deleted once the answer is out). */
export function repliesTo(discord, message) {
  return discord
    .channelMessages(message.channelId)
    .filter((candidate) => candidate.author.id === discord.botUser.id && candidate.replyTo === message.id);
}

/** Discord's SUPPRESS_NOTIFICATIONS flag: the bot posts its status lines quietly, its answers not. */
const QUIET = 1 << 12;

/**
 * The bot's answer to a message, as opposed to a status line ("Calling MCP tool echo…"):
 * either the answer (it names the message's token) or a plain sentence that answering failed.
 */
export function isFinalReply(reply) {
  return (reply.flags & QUIET) === 0;
}
