import { labelsOf } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { createBrowserTool } from './browser-tool.js';

describe('BROWSER labels', () => {
  const tool = createBrowserTool({ allowHosts: ['intranet.example'] });

  it('open reads outside content and sends to the URL; a host the user allowed is configured and may show their private data', () => {
    expect(labelsOf(tool, { argument: 'open https://example.com/a?q=1' })).toEqual({
      outside: true,
      sendsTo: 'https://example.com/a?q=1',
      configured: false,
    });
    expect(
      labelsOf(tool, { argument: '', arguments: { action: 'open', url: 'http://intranet.example/' } }),
    ).toEqual({
      outside: true,
      private: true,
      sendsTo: 'http://intranet.example/',
      configured: true,
    });
  });

  it('typing sends its text to the page, which is unknown while no page is open, and its scripts see it', () => {
    expect(labelsOf(tool, { argument: 'type e7 "my address"', conversationId: 'c1' })).toEqual({
      outside: true,
      sendsTo: 'the page open in the browser',
      payload: ['my address'],
      payloadSeenByScripts: true,
    });
  });

  it('counts a character pressed as text, a key that types nothing as none', () => {
    expect(labelsOf(tool, { argument: 'press Enter' }).payload).toEqual([]);
    expect(labelsOf(tool, { argument: 'press Shift+ArrowDown' }).payload).toEqual([]);
    expect(labelsOf(tool, { argument: 'press KeyA' }).payload).toEqual(['KeyA']);
  });

  it("hands a URL's fragment to the policy as what the page's scripts see", () => {
    expect(labelsOf(tool, { argument: 'open https://example.com/a#q=1' })).toMatchObject({
      sendsTo: 'https://example.com/a#q=1',
      payload: ['q=1'],
      payloadSeenByScripts: true,
    });
  });

  it('counts no host as configured because private addresses are allowed', () => {
    const open = createBrowserTool({ allowPrivateNetwork: true });
    expect(labelsOf(open, { argument: 'open http://10.0.0.2/' }).configured).toBe(false);
  });

  it('reading actions send nothing', () => {
    for (const argument of ['read', 'screenshot', 'tabs', 'back', 'scroll down', 'wait for Done'])
      expect(labelsOf(tool, { argument })).toEqual({ outside: true });
  });
});
