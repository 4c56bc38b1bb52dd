import { Client, Events, GatewayIntentBits, type Message, Partials } from 'discord.js';
import { type FakeDiscord, type FakeDiscordOptions, startFakeDiscord } from '../src/index.js';

/** A fake Discord with the real discord.js client logged in against it, and what the client received. */
export interface ClientSession {
  fake: FakeDiscord;
  client: Client;
  received: Message[];
}

let current: { fake?: FakeDiscord; client?: Client } = {};

/** Starts the fake and logs the real discord.js client in, with the bot's intents and partials. */
export async function startWithClient(
  options: FakeDiscordOptions = {},
  token = 'secret',
): Promise<ClientSession> {
  const fake = await startFakeDiscord(options);
  const client = new Client({
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.DirectMessages,
      GatewayIntentBits.MessageContent,
    ],
    partials: [Partials.Channel],
    rest: { api: fake.apiUrl, retries: 3 },
  });
  current = { fake, client };
  const received: Message[] = [];
  client.on(Events.MessageCreate, (message) => {
    received.push(message);
  });
  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(token);
  await ready;
  return { fake, client, received };
}

/** Destroys the client and closes the fake of the last {@link startWithClient}; for `afterEach`. */
export async function stopClient(): Promise<void> {
  const { fake, client } = current;
  current = {};
  await client?.destroy();
  await fake?.close();
}
