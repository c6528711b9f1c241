// A receiver host's back-off and giving up (issue 53 item 3), on a clock of the test's own.
import { describe, expect, it } from 'vitest';
import { HOST_FAILURES_TO_GIVE_UP, hostHealth, receiverHostOf } from './host-health';

const WINDOW = 60_000;

describe('a receiver host’s health', () => {
  it('backs off after each failure, twice as long each time in a row, then gives up', () => {
    const hosts = hostHealth({ backoffBaseMs: 1000, windowMs: WINDOW });
    let now = 0;
    expect(hosts.verdict('a.example', now)).toEqual({ kind: 'try' });
    for (let failures = 1; failures < HOST_FAILURES_TO_GIVE_UP; failures++) {
      expect(hosts.failed('a.example', now)).toBe(failures);
      const backoff = 1000 * 2 ** (failures - 1);
      expect(hosts.verdict('a.example', now + backoff - 1)).toEqual({
        kind: 'wait',
        until: new Date(now + backoff),
      });
      now += backoff;
      expect(hosts.verdict('a.example', now)).toEqual({ kind: 'try' });
    }
    // Another host is not held back by this one.
    expect(hosts.verdict('b.example', now)).toEqual({ kind: 'try' });
    expect(hosts.failed('a.example', now)).toBe(HOST_FAILURES_TO_GIVE_UP);
    expect(hosts.verdict('a.example', now + WINDOW)).toEqual({ kind: 'give-up', failures: HOST_FAILURES_TO_GIVE_UP });
    // A window with no try: forgotten, tried afresh.
    expect(hosts.verdict('a.example', now + WINDOW + 1)).toEqual({ kind: 'try' });
  });

  it('forgets a host’s failures once it answers 2xx, and failures a window apart are not in a row', () => {
    const hosts = hostHealth({ backoffBaseMs: 10, windowMs: WINDOW });
    hosts.failed('a.example', 0);
    hosts.failed('a.example', 100);
    hosts.succeeded('a.example');
    expect(hosts.verdict('a.example', 101)).toEqual({ kind: 'try' });
    expect(hosts.failed('a.example', 200)).toBe(1);
    expect(hosts.failed('a.example', 200 + WINDOW + 1)).toBe(1);
  });

  it('knows a receiver by its URL’s host and port, as the URL parser writes them', () => {
    expect(receiverHostOf('https://Hooks.Example.com:443/a?b')).toBe('hooks.example.com');
    expect(receiverHostOf('http://127.0.0.1:8080/x')).toBe('127.0.0.1:8080');
    expect(receiverHostOf('https://[2606:4700::1111]/x')).toBe('[2606:4700::1111]');
  });
});
