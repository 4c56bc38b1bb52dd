import { describe, expect, it } from 'vitest';
import { decodeBody, detectCharset } from './charset.js';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))),
  );

describe('detectCharset', () => {
  it('takes the charset of the Content-Type header first', () => {
    expect(detectCharset(bytes('<meta charset="utf-8">'), 'text/html; charset=Shift_JIS')).toBe('shift_jis');
  });

  it('reads <meta charset> when the header has none', () => {
    expect(detectCharset(bytes('<html><head><meta charset="euc-jp">'), 'text/html')).toBe('euc-jp');
  });

  it('reads the http-equiv form of the meta tag', () => {
    const page = bytes('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">');
    expect(detectCharset(page, undefined)).toBe('windows-1251');
  });

  it('reads the encoding of an XML declaration', () => {
    expect(detectCharset(bytes('<?xml version="1.0" encoding="ISO-8859-2"?><rss/>'), 'application/xml')).toBe(
      'iso-8859-2',
    );
  });

  it('lets a byte-order mark win over everything', () => {
    expect(detectCharset(bytes([0xef, 0xbb, 0xbf], 'x'), 'text/html; charset=iso-8859-1')).toBe('utf-8');
    expect(detectCharset(bytes([0xff, 0xfe], 'x'), undefined)).toBe('utf-16le');
  });

  it('treats ISO-8859-1 as windows-1252, as browsers do', () => {
    expect(detectCharset(bytes('x'), 'text/plain; charset=ISO-8859-1')).toBe('windows-1252');
  });

  it('ignores a label it does not know and falls back on the bytes', () => {
    expect(detectCharset(bytes('plain'), 'text/plain; charset=klingon')).toBe('utf-8');
  });

  it('falls back to windows-1252 when undeclared bytes are not UTF-8', () => {
    expect(detectCharset(bytes('caf', [0xe9]), 'text/html')).toBe('windows-1252');
  });

  it('keeps UTF-8 when the cap cut a character in half', () => {
    const cut = Buffer.from('naïve café', 'utf8').subarray(0, -1);
    expect(detectCharset(cut, 'text/plain', true)).toBe('utf-8');
  });

  it('does not believe a page that declares UTF-16 from inside itself', () => {
    expect(detectCharset(bytes('<meta charset="utf-16">'), 'text/html')).toBe('utf-8');
  });
});

describe('decodeBody', () => {
  it('decodes Shift_JIS', () => {
    expect(decodeBody(bytes([0x93, 0xfa, 0x96, 0x7b]), 'text/plain; charset=sjis')).toBe('日本');
  });

  it('decodes ISO-8859-1 declared in a meta tag', () => {
    expect(decodeBody(bytes('<meta charset="iso-8859-1">caf', [0xe9]), 'text/html')).toBe(
      '<meta charset="iso-8859-1">café',
    );
  });
});
