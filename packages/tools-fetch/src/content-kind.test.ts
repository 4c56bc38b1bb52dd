import { describe, expect, it } from 'vitest';
import { contentKind, describeBinary, formatBytes, mediaType } from './content-kind.js';

const none = new Uint8Array();
const head = (text: string) => Buffer.from(text);

describe('contentKind', () => {
  it('reads HTML, JSON, text and binary types from the header', () => {
    expect(contentKind('text/html', none).kind).toBe('html');
    expect(contentKind('application/xhtml+xml', none).kind).toBe('html');
    expect(contentKind('application/json', none).kind).toBe('json');
    expect(contentKind('application/ld+json', none).kind).toBe('json');
    expect(contentKind('text/csv', none).kind).toBe('text');
    expect(contentKind('application/rss+xml', none).kind).toBe('text');
    expect(contentKind('image/png', none).kind).toBe('binary');
    expect(contentKind('image/svg+xml', none).kind).toBe('binary');
    expect(contentKind('application/pdf', none).kind).toBe('binary');
  });

  it('sniffs an untyped body from its first bytes', () => {
    expect(contentKind('', head('%PDF-1.4')).type).toBe('application/pdf');
    expect(contentKind('', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d])).type).toBe('image/png');
    expect(contentKind('', head('  <!DOCTYPE html><p>x')).kind).toBe('html');
    expect(contentKind('application/octet-stream', head('{"a":1}')).kind).toBe('json');
    expect(contentKind('', head('just words')).kind).toBe('text');
    expect(contentKind('', Buffer.from([0x41, 0x00, 0x42])).kind).toBe('binary');
  });
});

describe('mediaType', () => {
  it('drops parameters and lower-cases', () => {
    expect(mediaType('Text/HTML; charset=UTF-8')).toBe('text/html');
    expect(mediaType(undefined)).toBe('');
  });
});

describe('describeBinary', () => {
  it('names the type and size in one line', () => {
    expect(describeBinary('https://x.test/a.pdf', 'application/pdf', 1536)).toBe(
      'https://x.test/a.pdf is a PDF document (application/pdf, 1.5 KB); FETCH_URL shows text, not its contents.',
    );
  });

  it('says when the size is unknown', () => {
    expect(describeBinary('https://x.test/v', 'video/mp4', undefined)).toBe(
      'https://x.test/v is a video (video/mp4, size unknown); FETCH_URL shows text, not its contents.',
    );
  });
});

describe('formatBytes', () => {
  it('uses bytes, KB and MB', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});
