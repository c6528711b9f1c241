import { describe, expect, it } from 'vitest';
import { escapeMarkup } from '../markup/escape-markup';
import { emailChangedNotice, emailChangeMail, passwordResetMail, verificationMail } from './templates';

const url = 'https://app.example.com/api/auth/verify-email?token=abc.def-123&callbackURL=%2F';

describe('mail templates', () => {
  it.each([
    ['verification', verificationMail, 'Verify your email for Picture Palette', 'Verify email address'],
    ['password reset', passwordResetMail, 'Reset your Picture Palette password', 'Reset password'],
  ] as const)('%s mail: subject, button, link in both parts, expiry', (_name, build, subject, button) => {
    const mail = build({ to: 'ada@example.com', url });
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe(subject);

    // The button and the copyable raw URL both carry the (attribute-escaped) link.
    const href = `href="${escapeMarkup(url)}"`;
    expect(mail.html.split(href)).toHaveLength(3);
    expect(mail.html).toContain(`>${button}</a>`);
    expect(mail.html).toContain('#6C5CE7');
    expect(mail.html).toContain('linear-gradient(135deg,#6C5CE7 0%,#FF6B8B 100%)');
    expect(mail.html).toContain('Picture Palette');
    expect(mail.html).toContain('expires in 1 hour');

    expect(mail.text.split('\n')).toContain(url);
    expect(mail.text).toContain('expires in 1 hour');
    expect(mail.text).toContain('ada@example.com');
  });

  it('escapes a hostile recipient and URL in the HTML, keeps them verbatim in the text', () => {
    const to = '"<script>alert(1)</script>"@evil.test';
    const hostileUrl = 'https://evil.test/?a="><img src=x onerror=alert(1)>&b=\'';
    const mail = verificationMail({ to, url: hostileUrl });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('alert(1)>');
    expect(mail.html).toContain('&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;@evil.test');
    expect(mail.html).toContain('href="https://evil.test/?a=&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;b=&#39;"');
    expect(mail.text).toContain(hostileUrl);
    expect(mail.text).toContain(to);
  });

  it('refuses links that are not absolute http(s) URLs', () => {
    expect(() => verificationMail({ to: 'a@b.c', url: 'javascript:alert(1)' })).toThrow(/http/);
    expect(() => passwordResetMail({ to: 'a@b.c', url: '/reset?token=x' })).toThrow(/absolute/);
  });

  it('escapeMarkup covers the five special characters', () => {
    expect(escapeMarkup(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('email change: the link to the new address names the old one; the notice to the old one names the new, escaped', () => {
    const change = emailChangeMail({ to: 'new@example.com', url, oldEmail: 'old@example.com' });
    expect(change.subject).toBe('Confirm your new email for Picture Palette');
    expect(change.text).toContain('from old@example.com to this address');
    expect(change.text.split('\n')).toContain(url);

    const hostile = '"<b>x</b>"@evil.test';
    const notice = emailChangedNotice({ to: 'old@example.com', url: 'https://app.example.com', newEmail: hostile });
    expect(notice.to).toBe('old@example.com');
    expect(notice.subject).toBe('Your Picture Palette email was changed');
    expect(notice.text).toContain(`is now ${hostile}`);
    expect(notice.html).not.toContain('<b>x</b>');
    expect(notice.html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });
});
