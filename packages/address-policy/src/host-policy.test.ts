import { describe, expect, it } from 'vitest';
import { canonicalHost, createHostPolicy } from './host-policy.js';

describe('canonicalHost', () => {
  it('writes every IPv4 spelling as dotted decimal', () => {
    for (const spelling of [
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '127.1',
      '127.0.1',
      '0x7f.1',
      '127.0.0.1.',
    ]) {
      expect(canonicalHost(spelling)).toBe('127.0.0.1');
    }
  });

  it('lower-cases names, drops the trailing dot and writes IDNs in punycode', () => {
    expect(canonicalHost('Example.COM.')).toBe('example.com');
    expect(canonicalHost('bücher.example')).toBe('xn--bcher-kva.example');
  });

  it('compresses IPv6 literals, with or without brackets', () => {
    expect(canonicalHost('0:0:0:0:0:0:0:1')).toBe('[::1]');
    expect(canonicalHost('[::ffff:127.0.0.1]')).toBe('[::ffff:7f00:1]');
  });
});

describe('createHostPolicy', () => {
  it('refuses an allowHosts range that is not one, in one sentence', () => {
    expect(() => createHostPolicy({ allowHosts: ['10.0.0.0/99'] })).toThrow(
      'allowHosts: "10.0.0.0/99" is not an address range (write it like 192.168.1.0/24 or fd00::/8).',
    );
  });

  it('refuses a private address and says how to allow it', () => {
    expect(createHostPolicy({}).refusal('10.0.0.5', '10.0.0.5')).toBe(
      'blocked: 10.0.0.5 is a private address; add the host to allowHosts to fetch it',
    );
  });

  it('names the host when a name resolved to the refused address', () => {
    expect(createHostPolicy({}).refusal('db.internal', '192.168.0.4')).toBe(
      'blocked: 192.168.0.4 (the address of db.internal) is a private address; add the host to allowHosts to fetch it',
    );
  });

  it('lets public addresses through with no options', () => {
    expect(createHostPolicy({}).refusal('example.com', '93.184.216.34')).toBeUndefined();
  });

  it('allows everything with allowPrivateNetwork', () => {
    expect(createHostPolicy({ allowPrivateNetwork: true }).refusal('x', '127.0.0.1')).toBeUndefined();
  });

  it('allows a listed name whatever it resolves to, and nothing else', () => {
    const policy = createHostPolicy({ allowHosts: ['NAS.local'] });
    expect(policy.refusal('nas.local.', '192.168.1.2')).toBeUndefined();
    expect(policy.refusal('other.local', '192.168.1.2')).toMatch(/^blocked:/);
  });

  it('allows subdomains for a wildcard entry but not the bare domain', () => {
    const policy = createHostPolicy({ allowHosts: ['*.corp.example'] });
    expect(policy.refusal('wiki.corp.example', '10.0.0.1')).toBeUndefined();
    expect(policy.refusal('corp.example', '10.0.0.1')).toMatch(/^blocked:/);
    expect(policy.refusal('evilcorp.example', '10.0.0.1')).toMatch(/^blocked:/);
  });

  it('allows an address entry in any spelling, and names resolving to it', () => {
    const policy = createHostPolicy({ allowHosts: ['0x7f.1'] });
    expect(policy.refusal('127.0.0.1', '127.0.0.1')).toBeUndefined();
    expect(policy.refusal('anything.test', '127.0.0.1')).toBeUndefined();
    expect(policy.refusal('127.0.0.2', '127.0.0.2')).toMatch(/^blocked:/);
  });

  it('allows addresses inside a CIDR entry, IPv4-mapped ones included', () => {
    const policy = createHostPolicy({ allowHosts: ['192.168.1.0/24', 'fd00::/8'] });
    expect(policy.refusal('printer', '192.168.1.40')).toBeUndefined();
    expect(policy.refusal('printer', '::ffff:192.168.1.40')).toBeUndefined();
    expect(policy.refusal('nas', 'fd00::5')).toBeUndefined();
    expect(policy.refusal('router', '192.168.2.1')).toMatch(/^blocked:/);
  });
});
