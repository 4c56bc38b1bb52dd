import type { FakeDiscord } from '@macstats/testing';

/** What one load run measured. */
export interface LoadResult {
  messages: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

/**
 * Closed-loop load: each channel sends a mention, waits for the bot's reply to it, then sends the
 * next; all channels at once. Latency runs from the dispatch to the fake receiving the reply.
 */
export async function runLoad(
  discord: FakeDiscord,
  channelIds: string[],
  perChannel: number,
  timeoutMs = 30_000,
): Promise<LoadResult> {
  const waiting = new Map<string, () => void>();
  const unsubscribe = discord.onRecord((record) => {
    if (record.type === 'create' && record.replyTo) waiting.get(record.replyTo)?.();
  });
  const latencies: number[] = [];
  const started = performance.now();
  try {
    await Promise.all(
      channelIds.map(async (channelId) => {
        for (let index = 0; index < perChannel; index++) {
          const sentAt = performance.now();
          let timer: ReturnType<typeof setTimeout> | undefined;
          await new Promise<void>((resolve, reject) => {
            const message = discord.dispatchMessage({
              channelId,
              content: `question ${index}`,
              mentionsBot: true,
            });
            waiting.set(message.id, () => {
              waiting.delete(message.id);
              resolve();
            });
            timer = setTimeout(
              () => reject(new Error(`no reply in ${channelId} within ${timeoutMs} ms`)),
              timeoutMs,
            );
          }).finally(() => clearTimeout(timer));
          latencies.push(performance.now() - sentAt);
        }
      }),
    );
  } finally {
    unsubscribe();
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    messages: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p95Ms: percentile(latencies, 0.95),
  };
}
