import { describe, expect, it } from 'vitest';
import { formatCallResult } from './format-result.js';

describe('formatCallResult', () => {
  it('joins the text parts', () => {
    const result = formatCallResult(
      't',
      {
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      100,
    );
    expect(result).toEqual({ text: 'one\ntwo' });
  });

  it('describes audio in a line', () => {
    const result = formatCallResult(
      't',
      { content: [{ type: 'audio', mimeType: 'audio/wav', data: 'AAAA' }] },
      100,
    );
    expect(result).toEqual({ text: '[audio audio/wav, 3 B]' });
  });

  it('describes a binary resource by uri, type and size', () => {
    const content = [
      {
        type: 'resource',
        resource: { uri: 'file:///a.gz', mimeType: 'application/gzip', blob: 'A'.repeat(4096) },
      },
    ];
    expect(formatCallResult('t', { content }, 100)).toEqual({
      text: '[resource file:///a.gz, application/gzip, 3.0 KB]',
    });
  });

  it('adds structured content the text does not carry', () => {
    const result = formatCallResult(
      't',
      { content: [{ type: 'text', text: 'Weather:' }], structuredContent: { temperature: 21 } },
      100,
    );
    expect(result).toEqual({ text: 'Weather:\n{"temperature":21}' });
  });

  it('shows structured content alone when there is no content', () => {
    expect(formatCallResult('t', { content: [], structuredContent: { ok: true } }, 100)).toEqual({
      text: '{"ok":true}',
    });
  });

  it('turns an isError result into an error naming the tool', () => {
    const result = formatCallResult(
      'files__read',
      { isError: true, content: [{ type: 'text', text: 'Access denied' }] },
      100,
    );
    expect(result).toEqual({ isError: true, text: 'MCP tool "files__read" failed: Access denied' });
  });

  it('says so when the tool returned nothing', () => {
    expect(formatCallResult('t', { content: [] }, 100)).toEqual({ text: '(the tool returned no content)' });
  });

  it('cuts a long result and says how much is missing', () => {
    expect(formatCallResult('t', { content: [{ type: 'text', text: 'x'.repeat(30) }] }, 10)).toEqual({
      text: `${'x'.repeat(10)}\n[… 20 more characters cut]`,
    });
  });
});
