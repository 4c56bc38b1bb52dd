import { describe, expect, it } from 'vitest';
import { classifyAddress } from './classify-address.js';

describe('classifyAddress', () => {
  const blocked: Array<[string, string]> = [
    ['127.0.0.1', 'a loopback address'],
    ['127.255.0.9', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.0.1', 'a private address'],
    ['169.254.1.1', 'a link-local address'],
    ['169.254.169.254', 'a cloud metadata address'],
    ['100.64.0.1', 'a carrier-grade NAT (shared) address'],
    ['100.100.100.200', 'a cloud metadata address'],
    ['224.0.0.1', 'a multicast address'],
    ['255.255.255.255', 'a broadcast address'],
    ['0.0.0.0', 'an unspecified (0.0.0.0/8) address'],
    ['0.1.2.3', 'an unspecified (0.0.0.0/8) address'],
    ['192.0.2.1', 'a reserved address'],
    ['198.18.0.1', 'a reserved address'],
    ['240.0.0.1', 'a reserved address'],
    ['::1', 'a loopback address'],
    ['::', 'an unspecified IPv6 address'],
    ['fe80::1', 'a link-local IPv6 address'],
    ['fc00::1', 'a unique-local IPv6 address'],
    ['fd12:3456::1', 'a unique-local IPv6 address'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['ff02::1', 'a multicast IPv6 address'],
    ['fec0::1', 'a site-local IPv6 address'],
    ['::ffff:127.0.0.1', 'an IPv6 form of a loopback address'],
    ['::ffff:10.0.0.1', 'an IPv6 form of a private address'],
    ['::ffff:0:192.168.1.1', 'an IPv6 form of a private address'],
    ['::7f00:1', 'an IPv6 form of a loopback address'],
    ['64:ff9b::a00:1', 'an IPv6 form of a private address'],
    ['64:ff9b:1::a00:1', 'a local-use NAT64 address'],
    ['2002:c0a8:101::1', 'an IPv6 form of a private address'],
    ['2002:a9fe:a9fe::', 'an IPv6 form of a cloud metadata address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a Teredo IPv6 address'],
    ['2001:db8::1', 'a reserved IPv6 address'],
    ['100::1', 'a reserved IPv6 address'],
    ['4000::1', 'a reserved IPv6 address'],
  ];
  for (const [address, why] of blocked) {
    it(`calls ${address} ${why}`, () => {
      expect(classifyAddress(address)).toBe(why);
    });
  }

  for (const address of [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ]) {
    it(`lets the public address ${address} through`, () => {
      expect(classifyAddress(address)).toBeUndefined();
    });
  }

  it('reads an address in brackets', () => {
    expect(classifyAddress('[::1]')).toBe('a loopback address');
  });

  it('refuses what is not an address at all', () => {
    expect(classifyAddress('example.com')).toBe('not a valid IP address');
  });
});
