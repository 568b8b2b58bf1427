import { z } from 'zod';
import { limits } from './limits';
import { emailSchema, passwordSchema } from './users';

/**
 * Mail (decision 0035): address verification, "forgot password" and the inbox's events as mail. All of it
 * works only when the server has SMTP_URL (GET /config's `mail`); without it the app runs as before.
 */

/** How a user gets the inbox's events by mail: each as it happens, one daily digest, or never. */
export const inboxMailSettings = ['each', 'digest', 'never'] as const;
export type InboxMailSetting = (typeof inboxMailSettings)[number];
export const inboxMailSettingLabels: Record<InboxMailSetting, string> = {
  each: 'A mail as events happen',
  digest: 'One daily digest',
  never: 'Never',
};

/** GET and PUT /api/user/mail-settings. */
export const mailSettingsSchema = z.object({ inboxMail: z.enum(inboxMailSettings) }).strict();
export type MailSettings = z.infer<typeof mailSettingsSchema>;

/** POST /api/user/forgot-password: the same 202 answer whether or not an account has this email. */
export const forgotPasswordBodySchema = z.object({ email: emailSchema }).strict();
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

/** A link's token as mailed: 43 base64url characters (32 random bytes). */
const mailTokenSchema = z
  .string({ error: 'The link is not valid.' })
  .min(16, { error: 'The link is not valid.' })
  .max(200, { error: 'The link is not valid.' });

/** POST /api/user/reset-password: the reset link's token and the new password (the register form's rules). */
export const resetPasswordBodySchema = z
  .object({ token: mailTokenSchema, password: passwordSchema })
  .strict();
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

/** POST /api/user/verify-email: the verification link's token. */
export const verifyEmailBodySchema = z.object({ token: mailTokenSchema }).strict();
export type VerifyEmailBody = z.infer<typeof verifyEmailBodySchema>;

/** The answer of forgot-password and of "Send again": accepted, whatever happens next. */
export const mailAcceptedSchema = z.object({ message: z.string() });
export type MailAccepted = z.infer<typeof mailAcceptedSchema>;

/**
 * Throttles of the mail features (counted through the server's lib/limiters.ts: in Redis with REDIS_URL). Forgot
 * password: per address asked for and requester (IP; known or not: 429 alike, so no enumeration; a stranger's
 * requests do not block the owner's: decision 0044), and at most so many reset mails per account and requester, and
 * per account from all requesters (silently: the answer stays the same); "Send again" of a verification mail per
 * account.
 */
export const mailLimits = {
  forgotPerAddressPerHour: 5,
  resetMailsPerRequesterPerHour: 3,
  resetMailsPerAccountPerHour: 10,
  verificationMailsPerAccountPerHour: 3,
  /**
   * An inbox event's mail waits this long for the recipient's next events, which join it: one mail for a burst
   * (decision 0044). Only for the 'each' setting; the digest gathers a day.
   */
  eventMailGatherMinutes: 2,
} as const;

/** How long the mailed links work. */
export const mailTokenLifetimes = { verifyEmailHours: 48, resetPasswordMinutes: 60 } as const;

/** The mail features' texts, shared by the server's answers and the web's screens. */
export const mailMessages = {
  mailOff: 'Password reset by mail is off on this server; ask an administrator.',
  verificationOff: 'Mail is off on this server, so addresses cannot be verified.',
  forgotAccepted:
    'If an account has this email, a link to reset its password is on its way. It works for one hour.',
  verificationSent: 'A verification link is on its way to your email address.',
  verifyBanner: 'Please verify your email address.',
  verified: 'Your email address is verified.',
  passwordReset: 'Your password is changed. Log in with the new one.',
  passwordChanged: 'Password changed. Your other sessions have ended.',
  tokenInvalid: 'This link is not valid. Ask for a new one.',
  tokenUsed: 'This link has already been used. Ask for a new one if you need it.',
  tokenExpired: 'This link has expired. Ask for a new one.',
  passwordsDiffer: 'The passwords do not match.',
  mailSettingsSaved: 'Mail settings saved.',
  /** Under the setting (decision 0044): who gets inbox mail, and that a burst of events is one mail. */
  inboxMailHint: `Inbox mail goes only to a verified address. Events that come within ${mailLimits.eventMailGatherMinutes} minutes of each other arrive in one mail.`,
} as const;

/** Re-exported for the web's forms: the same limit as registration. */
export const newPasswordLimits = limits.password;
