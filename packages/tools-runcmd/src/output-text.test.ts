import { describe, expect, it } from 'vitest';
import { CappedBuffer, toSafeText } from './output-text.js';

describe('CappedBuffer', () => {
  it('keeps bytes up to the cap across chunks and counts the rest', () => {
    const buffer = new CappedBuffer(5);
    buffer.push(Buffer.from('abc'));
    buffer.push(Buffer.from('defg'));
    expect(buffer.bytes().toString()).toBe('abcde');
    expect(buffer.total).toBe(7);
  });

  it('drops an incomplete UTF-8 character at the cut', () => {
    const buffer = new CappedBuffer(4);
    buffer.push(Buffer.from('a€b')); // € is three bytes: a, e2 82 ac, b
    expect(buffer.bytes().toString()).toBe('a€');
    const short = new CappedBuffer(3);
    short.push(Buffer.from('a€b'));
    expect(short.bytes().toString()).toBe('a');
  });

  it('keeps a complete buffer as it is', () => {
    const buffer = new CappedBuffer(10);
    buffer.push(Buffer.from([0x61, 0xe2]));
    expect([...buffer.bytes()]).toEqual([0x61, 0xe2]);
  });
});

describe('toSafeText', () => {
  it('turns bytes that are not UTF-8 into U+FFFD', () => {
    expect(toSafeText(Buffer.from([0x61, 0xff, 0x62]))).toBe('a\ufffdb');
  });

  it('writes control characters as \\xNN and keeps tabs and newlines', () => {
    expect(toSafeText(Buffer.from('a\u0000b\u001b[0m\tc\nd\re\u007f'))).toBe(
      'a\\x00b\\x1b[0m\tc\nd\\x0de\\x7f',
    );
  });

  it('turns CRLF into LF', () => {
    expect(toSafeText(Buffer.from('a\r\nb\r\n'))).toBe('a\nb\n');
  });

  it('keeps other Unicode as it is', () => {
    expect(toSafeText(Buffer.from('häßlich ☃ 𝄞'))).toBe('häßlich ☃ 𝄞');
  });
});
