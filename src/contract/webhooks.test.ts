import { describe, expect, it } from 'vitest';
import { TOOL_REQUEST_SCHEMAS } from './tool-requests';
import { isNonPublicAddress, WEBHOOK_MESSAGES, WEBHOOK_URL, webhookUrlRefusal } from './webhooks';

describe('the addresses a webhook may never reach in production', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.20',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    'fc00::1',
    'fd12:3456:789a::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.1.2.3',
    '::ffff:192.168.0.1',
    '::127.0.0.1',
    '64:ff9b::10.0.0.1',
  ])('%s is not public', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '169.253.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2001:db8::1',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2a00::1',
  ])('%s is public', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
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
    for (const schema of Object.values(TOOL_REQUEST_SCHEMAS)) {
      expect(schema.shape.webhook.safeParse(undefined).success).toBe(true);
      expect(schema.shape.webhook.safeParse('https://example.com/hook').success).toBe(true);
      expect(schema.shape.webhook.safeParse('nope').success).toBe(false);
    }
  });

  it('in production: https to a public host only', () => {
    expect(webhookUrlRefusal('https://hooks.example.com/a?b=c', production)).toBeNull();
    expect(webhookUrlRefusal('https://8.8.8.8/hook', production)).toBeNull();
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
      'localhost',
      'api.localhost',
      'printer.local',
      'metadata.google.internal',
      'intranet',
      '2130706433', // 127.0.0.1 written as one number: the URL parser reads it as the address
      '0x7f.1',
    ]) {
      expect(webhookUrlRefusal(`https://${host}/hook`, production), host).toMatch(/is a local or private address/);
    }
  });

  it('outside production: http and 127.0.0.1 too', () => {
    expect(webhookUrlRefusal('http://127.0.0.1:4000/hook', development)).toBeNull();
    expect(webhookUrlRefusal('http://localhost/hook', development)).toBeNull();
    expect(webhookUrlRefusal('ftp://127.0.0.1/hook', development)).toBe(WEBHOOK_MESSAGES.scheme);
  });
});
