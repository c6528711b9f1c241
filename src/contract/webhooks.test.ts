import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { TOOL_IDS } from './tools';
import {
  isNonPublicAddress,
  specialPurposeRangeOf,
  WEBHOOK_MESSAGES,
  WEBHOOK_URL,
  webhookUrlRefusal,
} from './webhooks';

describe('the addresses a webhook may reach in production: globally routable unicast only', () => {
  // IANA's special-purpose registries (v4 and v6) and multicast, written out here apart from the
  // table in webhooks.ts: each range's first, a middle and its last address.
  const ipv4Ranges = [
    ['0.0.0.0/8', '0.0.0.0', '0.1.2.3', '0.255.255.255'],
    ['10.0.0.0/8', '10.0.0.0', '10.128.7.1', '10.255.255.255'],
    ['100.64.0.0/10', '100.64.0.0', '100.100.0.1', '100.127.255.255'],
    ['127.0.0.0/8', '127.0.0.0', '127.0.0.1', '127.255.255.255'],
    ['169.254.0.0/16', '169.254.0.0', '169.254.169.254', '169.254.255.255'],
    ['172.16.0.0/12', '172.16.0.0', '172.20.10.1', '172.31.255.255'],
    ['192.0.0.0/24', '192.0.0.0', '192.0.0.9', '192.0.0.255'],
    ['192.0.2.0/24', '192.0.2.0', '192.0.2.128', '192.0.2.255'],
    ['192.31.196.0/24', '192.31.196.0', '192.31.196.1', '192.31.196.255'],
    ['192.52.193.0/24', '192.52.193.0', '192.52.193.77', '192.52.193.255'],
    ['192.88.99.0/24', '192.88.99.0', '192.88.99.1', '192.88.99.255'],
    ['192.168.0.0/16', '192.168.0.0', '192.168.1.20', '192.168.255.255'],
    ['192.175.48.0/24', '192.175.48.0', '192.175.48.6', '192.175.48.255'],
    ['198.18.0.0/15', '198.18.0.0', '198.18.255.255', '198.19.255.255'],
    ['198.51.100.0/24', '198.51.100.0', '198.51.100.7', '198.51.100.255'],
    ['203.0.113.0/24', '203.0.113.0', '203.0.113.99', '203.0.113.255'],
    ['224.0.0.0/4', '224.0.0.0', '232.1.2.3', '239.255.255.255'],
    ['240.0.0.0/4', '240.0.0.0', '250.0.0.1', '255.255.255.254'],
    ['255.255.255.255/32', '255.255.255.255', '255.255.255.255', '255.255.255.255'],
  ];
  const ipv6Ranges = [
    ['::/128', '::', '0:0:0:0:0:0:0:0', '::'],
    ['::1/128', '::1', '0:0:0:0:0:0:0:1', '[::1]'],
    ['64:ff9b:1::/48', '64:ff9b:1::', '64:ff9b:1::8.8.8.8', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
    ['100::/64', '100::', '100::1:2', '100::ffff:ffff:ffff:ffff'],
    ['2001::/23', '2001::', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2001:db8::/32', '2001:db8::', '2001:db8::1', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['3fff::/20', '3fff::', '3fff:800::1', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['5f00::/16', '5f00::', '5f00:1::1', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fc00::/7', 'fc00::', 'fd12:3456:789a::1', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fe80::/10', 'fe80::', 'fe80::1%eth0', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['ff00::/8', 'ff00::', 'ff02::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    // Outside 2000::/3, global unicast: all of ::/3 and 4000::/2 and 8000::/1 not named above.
    ['outside 2000::/3', '::2', '1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '4000::'],
    ['outside 2000::/3', '::8.8.8.8', 'fec0::1', 'c000::1'],
  ];
  // IPv6 forms carrying an IPv4 address are judged by it.
  const carrying = [
    ['::ffff:0:0/96', ['::ffff:0.0.0.0', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.1.2.3', '::ffff:198.18.0.1']],
    ['64:ff9b::/96', ['64:ff9b::10.0.0.1', '64:ff9b::c000:201', '64:ff9b::203.0.113.255', '64:ff9b::127.0.0.1']],
    ['2002::/16', ['2002:7f00:1::', '2002:a00:1::1', '2002:c612:1::', '2002:cb00:71ff:ffff:ffff:ffff:ffff:ffff']],
  ] as const;

  it.each([...ipv4Ranges, ...ipv6Ranges])('%s: refused from %s through %s to %s', (range, ...addresses) => {
    for (const address of addresses) {
      expect(isNonPublicAddress(address), address).toBe(true);
      expect(specialPurposeRangeOf(address), address).toContain(range);
    }
  });

  it.each(carrying)('%s carrying a refused IPv4 address is refused', (range, addresses) => {
    for (const address of addresses) {
      expect(isNonPublicAddress(address), address).toBe(true);
      expect(specialPurposeRangeOf(address), address).toMatch(new RegExp(`^${range} .* carrying `));
    }
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '1.0.0.0',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.255',
    '192.0.3.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '198.51.99.255',
    '198.51.101.0',
    '203.0.112.255',
    '203.0.114.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '[2606:4700:4700::1111]',
    '2001:4860:4860::8888',
    '2000::',
    '2001:200::',
    '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff',
    '2001:db9::',
    '2003::1',
    '2a00:1450:4001::200e',
    '3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '3fff:1000::',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::8.8.8.8',
    '64:ff9b::101:101',
    '2002:808:808::1',
  ])('%s is globally routable', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
    expect(specialPurposeRangeOf(address)).toBeNull();
  });

  it('is not fooled by text that is not an address', () => {
    for (const text of ['example.com', '1.2.3', '1.2.3.4.5', '256.1.1.1', ':::1', '1::2::3', 'g::1', '']) {
      expect(isNonPublicAddress(text)).toBe(false);
    }
  });
});

describe('a webhook URL', () => {
  const production = { production: true };
  const development = { production: false };

  it('must be an absolute http(s) URL of at most 2,000 characters, in sentences', () => {
    expect(WEBHOOK_URL.safeParse('https://example.com/hook').success).toBe(true);
    const reason = (value: unknown) => WEBHOOK_URL.safeParse(value).error?.issues[0]?.message;
    expect(reason('/relative/hook')).toBe(WEBHOOK_MESSAGES.invalid);
    expect(reason('not a url')).toBe(WEBHOOK_MESSAGES.invalid);
    expect(reason('ftp://example.com/hook')).toBe(WEBHOOK_MESSAGES.scheme);
    expect(reason('javascript:alert(1)')).toBe(WEBHOOK_MESSAGES.scheme);
    expect(reason('https://user:pw@example.com/hook')).toBe(WEBHOOK_MESSAGES.credentials);
    expect(reason(42)).toBe(WEBHOOK_MESSAGES.notText);
    expect(reason(`https://example.com/${'a'.repeat(2000)}`)).toBe(WEBHOOK_MESSAGES.tooLong);
    expect(WEBHOOK_URL.safeParse(`https://example.com/${'a'.repeat(2000 - 20)}`).success).toBe(true);
  });

  it('is a field of every tool’s request, optional', () => {
    const requests = import.meta.glob<{ request: z.ZodObject<{ webhook: z.ZodType }> }>('./tools/*/request.ts', {
      eager: true,
    });
    expect(Object.keys(requests)).toHaveLength(TOOL_IDS.length);
    for (const { request: schema } of Object.values(requests)) {
      expect(schema.shape.webhook.safeParse(undefined).success).toBe(true);
      expect(schema.shape.webhook.safeParse('https://example.com/hook').success).toBe(true);
      expect(schema.shape.webhook.safeParse('nope').success).toBe(false);
    }
  });

  it('in production: https to a public host only', () => {
    expect(webhookUrlRefusal('https://hooks.example.com/a?b=c', production)).toBeNull();
    expect(webhookUrlRefusal('https://8.8.8.8/hook', production)).toBeNull();
    expect(webhookUrlRefusal('https://[2606:4700:4700::1111]/hook', production)).toBeNull();
    expect(webhookUrlRefusal('https://[2001:4860:4860::8888]:8443/hook', production)).toBeNull();
    expect(webhookUrlRefusal('https://[::ffff:8.8.8.8]/hook', production)).toBeNull();
    expect(webhookUrlRefusal('http://hooks.example.com/a', production)).toBe(WEBHOOK_MESSAGES.httpsOnly);
    for (const host of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.0.10',
      '169.254.169.254',
      '0.0.0.0',
      '[::1]',
      '[fd00::1]',
      '[fe80::1]',
      '[::ffff:127.0.0.1]',
      '192.0.0.1',
      '192.0.2.10',
      '198.18.0.1',
      '198.19.255.255',
      '198.51.100.7',
      '203.0.113.5',
      '240.0.0.1',
      '[2001:db8::1]',
      '[64:ff9b::c0a8:1]',
      '[2002:c0a8:1::1]',
      '[fec0::1]',
      'localhost',
      'api.localhost',
      'printer.local',
      'metadata.google.internal',
      'intranet',
      '2130706433', // 127.0.0.1 written as one number: the URL parser reads it as the address
      '0x7f.1',
    ]) {
      expect(webhookUrlRefusal(`https://${host}/hook`, production), host).toMatch(
        /is a local, private or reserved address/,
      );
    }
  });

  it('outside production: http and 127.0.0.1 too', () => {
    expect(webhookUrlRefusal('http://127.0.0.1:4000/hook', development)).toBeNull();
    expect(webhookUrlRefusal('http://localhost/hook', development)).toBeNull();
    expect(webhookUrlRefusal('ftp://127.0.0.1/hook', development)).toBe(WEBHOOK_MESSAGES.scheme);
  });
});
