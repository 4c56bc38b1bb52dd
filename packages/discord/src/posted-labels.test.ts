import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PostedLabels, postedInChain, UNRECORDED_POST_SOURCE } from './posted-labels.js';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('PostedLabels', () => {
  it('keeps what each posted message read across a restart, in a file only its owner reads', async () => {
    dir = await mkdtemp(join(tmpdir(), 'posted-'));
    const file = join(dir, 'discord_posts.json');
    const first = new PostedLabels(file);
    first.record(['111', '112'], {
      outside: ['FETCH_URL https://news.example/'],
      origins: ['https://news.example'],
    });
    first.record(['113'], { outside: [], origins: [] });
    await first.flush();
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const again = new PostedLabels(file);
    await again.load();
    const chain = [
      { id: '112', authorId: 'bot' },
      { id: '113', authorId: 'bot' },
      { id: '114', authorId: 'alice' },
    ];
    expect(postedInChain(chain, 'bot', again)).toEqual({
      outside: ['your earlier message, which read FETCH_URL https://news.example/'],
      origins: ['https://news.example'],
    });
  });

  it('reads a bot message it has no record of, or a broken file, as outside content', async () => {
    dir = await mkdtemp(join(tmpdir(), 'posted-'));
    const file = join(dir, 'discord_posts.json');
    await writeFile(file, '{"posts": ');
    const posted = new PostedLabels(file);
    await posted.load();
    expect(postedInChain([{ id: '9', authorId: 'bot' }], 'bot', posted).outside).toEqual([
      UNRECORDED_POST_SOURCE,
    ]);
  });
});
