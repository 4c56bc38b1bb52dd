import { describe, expect, it } from 'vitest';
import { createSecretScrubber } from './secrets.js';

const TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB';
const KEY = 'BSA-brave-key-0123456789';
const MCP_URL = 'https://user:pa55word@mcp.example.com/private-path/mcp?token=t0ps3cret&x=1';

describe('createSecretScrubber', () => {
  const scrub = createSecretScrubber([TOKEN, KEY, undefined], [MCP_URL]);

  it('replaces a known key with its ends around ***', () => {
    expect(scrub(`key=${KEY}`)).toBe('key=BS***89');
  });

  it('replaces a key written JSON-escaped or URL-encoded', () => {
    const scrubQuote = createSecretScrubber(['a"b\\c-secret']);
    expect(scrubQuote(JSON.stringify({ key: 'a"b\\c-secret' }))).not.toContain('secret');
    const scrubSlash = createSecretScrubber(['key/with+plus']);
    expect(scrubSlash(`?q=${encodeURIComponent('key/with+plus')}`)).not.toContain('plus');
  });

  it('replaces anything shaped like a Discord bot token, known or not', () => {
    const other = 'NzkyNzE1NDU0MTk2MDg4ODQy.X-hvzA.Ovy4MCQywSkoMRRclStW4xAYK7I';
    expect(scrub(`Bot ${other}`)).toBe('Bot ***');
    expect(scrub(`Bot ${TOKEN}`)).not.toContain('abcdefghijklmnop');
  });

  it('keeps only the scheme and host of an MCP URL, however it is spelled', () => {
    const parsed = new URL(MCP_URL);
    for (const spelling of [MCP_URL, parsed.href, `https://mcp.example.com${parsed.pathname}`]) {
      const line = scrub(`connecting to ${spelling} now`);
      expect(line).toContain('https://mcp.example.com');
      expect(line).not.toContain('private-path');
      expect(line).not.toContain('t0ps3cret');
    }
  });

  it('removes the path, the query values and the password of an MCP URL written alone', () => {
    const line = scrub('POST /private-path/mcp failed; token t0ps3cret; password pa55word');
    expect(line).not.toMatch(/private-path|t0ps3cret|pa55word/);
  });

  it('leaves text without secrets as it is', () => {
    expect(scrub('the model answered in 120 ms')).toBe('the model answered in 120 ms');
  });

  it('ignores secrets too short to tell from ordinary words', () => {
    expect(createSecretScrubber(['abc'])(' abc ')).toBe(' abc ');
  });
});
