// The transactional mails: table layout with inline styles, which is what mail clients render
// reliably, and a plain-text twin carrying the same link.
import { escapeMarkup } from '../markup/escape-markup';
import { htmlDocument } from '../markup/html-page';
import type { MailMessage } from './mailer';

export type LinkMailInput = { to: string; url: string };

type LinkMailContent = {
  subject: string;
  /** The preview line clients show next to the subject. */
  preheader: string;
  heading: string;
  intro: string;
  button: string;
  expiry: string;
  notRequested: string;
};

const PRODUCT = 'Picture Palette';
const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
// Clients that drop gradients (Outlook, some webmail) keep the solid bgcolor / background-color.
const BRAND_FILL = 'background-color:#6C5CE7;background-image:linear-gradient(135deg,#6C5CE7 0%,#FF6B8B 100%);';

export function verificationMail(input: LinkMailInput): MailMessage {
  return linkMail(input, {
    subject: 'Verify your email for Picture Palette',
    preheader: 'Confirm your email address to start creating with Picture Palette.',
    heading: 'Confirm your email address',
    intro: 'Thanks for signing up! Please confirm that this is your email address so you can start creating.',
    button: 'Verify email address',
    expiry: 'This link expires in 1 hour.',
    notRequested: "If you didn't create a Picture Palette account, you can safely ignore this email.",
  });
}

export function passwordResetMail(input: LinkMailInput): MailMessage {
  return linkMail(input, {
    subject: 'Reset your Picture Palette password',
    preheader: 'Choose a new password for your Picture Palette account.',
    heading: 'Reset your password',
    intro: 'We received a request to reset the password of your Picture Palette account. Choose a new one below.',
    button: 'Reset password',
    expiry: 'This link expires in 1 hour.',
    notRequested: "If you didn't ask for this, you can ignore this email: your password stays the same.",
  });
}

/** To the new address of an email change: the change takes effect when this link is opened. */
export function emailChangeMail(input: LinkMailInput & { oldEmail: string }): MailMessage {
  return linkMail(input, {
    subject: 'Confirm your new email for Picture Palette',
    preheader: 'Open the link to make this your Picture Palette sign-in email.',
    heading: 'Confirm your new email address',
    intro: `You asked to change the email of your Picture Palette account from ${input.oldEmail} to this address. It changes once you open the link below.`,
    button: 'Confirm new email',
    expiry: 'This link expires in 1 hour.',
    notRequested: "If you didn't ask for this, you can ignore this email: nothing changes.",
  });
}

/** To the old address once an email change has taken effect. */
export function emailChangedNotice(input: LinkMailInput & { newEmail: string }): MailMessage {
  return linkMail(input, {
    subject: 'Your Picture Palette email was changed',
    preheader: `Your account now signs in with ${input.newEmail}.`,
    heading: 'Your sign-in email was changed',
    intro: `The email address of your Picture Palette account is now ${input.newEmail}. You sign in with it from now on, and mail about your account goes there.`,
    button: 'Open Picture Palette',
    expiry: 'This is a notice: there is nothing you need to do if you made this change.',
    notRequested:
      "If you didn't make it, someone else may be in your account: reply to this email so that we can help you get it back.",
  });
}

/** How a password came to change: in User Settings, with a reset link, or a first one for a Google-only account. */
export type PasswordChange = 'changed' | 'reset' | 'set';

const PASSWORD_CHANGE_INTRO: Record<PasswordChange, string> = {
  changed:
    'The password of your Picture Palette account was just changed in User Settings, and your other devices were signed out.',
  reset:
    'The password of your Picture Palette account was just reset with the link we emailed you, and every device signed in before was signed out.',
  set: 'A password was just added to your Picture Palette account: it now signs in with your email and that password as well as with Google. Your other devices were signed out.',
};

/** To the account's address once its password has changed, as the email change tells the old address. */
export function passwordChangedNotice(input: LinkMailInput & { how: PasswordChange }): MailMessage {
  return linkMail(input, {
    subject: 'Your Picture Palette password was changed',
    preheader: 'If this was you, there is nothing to do.',
    heading: input.how === 'set' ? 'A password was added to your account' : 'Your password was changed',
    intro: PASSWORD_CHANGE_INTRO[input.how],
    button: 'Open Picture Palette',
    expiry: 'This is a notice: there is nothing you need to do if you made this change.',
    notRequested:
      "If you didn't make it, someone else may be in your account: reset your password from the sign-in form, and reply to this email so that we can help.",
  });
}

/** To the owner of an account whose sign-in was paused after a burst of wrong passwords (auth/sign-in-throttle.ts). */
export function signInBurstMail(input: LinkMailInput & { failures: number }): MailMessage {
  return linkMail(input, {
    subject: 'Failed sign-ins to your Picture Palette account',
    preheader: `${input.failures} sign-ins with a wrong password: sign-in is paused for a few minutes.`,
    heading: 'Someone tried to sign in to your account',
    intro: `There were ${input.failures} sign-ins with a wrong password to your Picture Palette account in the last minutes, so signing in with a password is paused for a few minutes.`,
    button: 'Open Picture Palette',
    expiry: 'If it was you, wait a few minutes or reset your password from the sign-in form.',
    notRequested: "If it wasn't you, your account is safe as long as your password is: consider changing it.",
  });
}

function linkMail({ to, url }: LinkMailInput, content: LinkMailContent): MailMessage {
  assertWebUrl(url);
  return { to, subject: content.subject, html: renderHtml(to, url, content), text: renderText(to, url, content) };
}

/** A link in a mail must open a web page; anything else (javascript:, relative paths) is a bug. */
function assertWebUrl(url: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new Error(`Mail link is not an absolute URL: ${url}`);
  }
  if (protocol !== 'https:' && protocol !== 'http:') throw new Error(`Mail link must be http(s): ${url}`);
}

function renderText(to: string, url: string, c: LinkMailContent): string {
  return [
    c.heading,
    '',
    c.intro,
    '',
    `${c.button}:`,
    url,
    '',
    `${c.expiry} ${c.notRequested}`,
    '',
    '--',
    PRODUCT,
    `This email was sent to ${to}.`,
    '',
  ].join('\n');
}

function renderHtml(to: string, url: string, c: LinkMailContent): string {
  const e = escapeMarkup;
  const href = e(url);
  const body = `<div style="display:none;max-height:0;max-width:0;overflow:hidden;opacity:0;mso-hide:all;">${e(c.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#F4F3FB" style="background-color:#F4F3FB;">
<tr>
<td align="center" style="padding:32px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#FFFFFF" style="max-width:560px;background-color:#FFFFFF;border-radius:16px;overflow:hidden;">
<tr><td height="6" bgcolor="#6C5CE7" style="height:6px;line-height:6px;font-size:0;${BRAND_FILL}">&nbsp;</td></tr>
<tr><td style="padding:32px 36px 0;font-family:${FONT};font-size:18px;line-height:24px;font-weight:700;color:#6C5CE7;">${PRODUCT}</td></tr>
<tr><td style="padding:20px 36px 0;font-family:${FONT};font-size:24px;line-height:32px;font-weight:700;color:#1F1B3A;">${e(c.heading)}</td></tr>
<tr><td style="padding:12px 36px 0;font-family:${FONT};font-size:16px;line-height:24px;color:#4A4763;">${e(c.intro)}</td></tr>
<tr>
<td style="padding:28px 36px;">
<table role="presentation" cellpadding="0" cellspacing="0" border="0">
<tr>
<td align="center" bgcolor="#6C5CE7" style="border-radius:10px;${BRAND_FILL}">
<a href="${href}" style="display:inline-block;padding:14px 28px;font-family:${FONT};font-size:16px;line-height:20px;font-weight:600;color:#FFFFFF;text-decoration:none;border-radius:10px;">${e(c.button)}</a>
</td>
</tr>
</table>
</td>
</tr>
<tr><td style="padding:0 36px;font-family:${FONT};font-size:14px;line-height:20px;color:#6B6880;">If the button doesn't work, copy this link into your browser:</td></tr>
<tr><td style="padding:6px 36px 0;font-family:${FONT};font-size:14px;line-height:20px;word-break:break-all;"><a href="${href}" style="color:#6C5CE7;text-decoration:underline;">${href}</a></td></tr>
<tr><td style="padding:24px 36px 32px;font-family:${FONT};font-size:14px;line-height:20px;color:#6B6880;">${e(c.expiry)} ${e(c.notRequested)}</td></tr>
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;">
<tr><td align="center" style="padding:16px 36px;font-family:${FONT};font-size:12px;line-height:18px;color:#9A97AE;">This email was sent to ${e(to)} by ${PRODUCT}.</td></tr>
</table>
</td>
</tr>
</table>`;
  return htmlDocument({
    title: c.subject,
    head: '<meta name="color-scheme" content="light">\n<meta name="supported-color-schemes" content="light">\n',
    bodyAttributes: ' style="margin:0;padding:0;background-color:#F4F3FB;"',
    body,
  });
}
