import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  forgotPasswordBodySchema,
  mailAcceptedSchema,
  mailMessages,
  mailSettingsSchema,
  noContentSchema,
  resetPasswordBodySchema,
  verifyEmailBodySchema,
} from '@reskin/contract';
import { currentUser } from '../../plugins/auth';
import type { MailService } from './mail.service';

export interface MailRoutesOptions {
  mail: MailService;
  /** Requests per minute per address, as login and signup (the per-route @fastify/rate-limit). */
  authRateLimitMax: number;
}

const mailOff = { 404: 'Mail is off on this server: no SMTP_URL (MAIL_OFF).' };
const tokenErrors = {
  400: "The link's token was never issued, or its address is no longer the account's (TOKEN_INVALID).",
  410: 'The link was used before (TOKEN_USED) or is past its time (TOKEN_EXPIRED).',
};

/** Mail's routes (decision 0035): forgot and reset password, verify an address, the mail setting. */
export async function mailRoutes(app: FastifyInstance, { mail, authRateLimitMax }: MailRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const perAddress = { rateLimit: { max: authRateLimitMax, timeWindow: '1 minute' } };
  const tags = ['users'];

  r.post(
    '/user/forgot-password',
    {
      config: perAddress,
      schema: {
        tags,
        summary: 'Mail a single-use link to reset the password of the account with this email (if any)',
        description:
          'Answers 202 alike for known and unknown emails (no account enumeration); the mail, if any, is queued after ' +
          'the answer. A few requests per email address and requester (IP) an hour, and a few reset mails per account ' +
          'and requester, a few more per account from all (silently; decision 0044).',
        body: forgotPasswordBodySchema,
        response: { 202: mailAcceptedSchema },
        errors: {
          ...mailOff,
          429: 'Too many requests for this email address from this requester this hour (RATE_LIMITED, error.retryAfter).',
        },
      },
    },
    async (request, reply) => {
      await mail.forgotPassword(request.body.email, request.ip);
      return reply.status(202).send({ message: mailMessages.forgotAccepted });
    },
  );

  r.post(
    '/user/reset-password',
    {
      config: perAddress,
      schema: {
        tags,
        summary: "Set a new password with a reset link's token; every session of the account ends",
        body: resetPasswordBodySchema,
        response: { 204: noContentSchema },
        errors: {
          ...tokenErrors,
          400:
            "The link's token was never issued, or its account has since changed its password or email, been reset by an " +
            'admin, re-roled, suspended or deleted (TOKEN_INVALID, decision 0044).',
          422: "The password breaks the register form's rules, or is common (details at /password).",
        },
      },
    },
    async (request, reply) => {
      await mail.resetPassword(request.body.token, request.body.password);
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/user/verify-email',
    {
      config: perAddress,
      schema: {
        tags,
        summary: 'Verify an email address with the token of its verification link',
        body: verifyEmailBodySchema,
        response: { 204: noContentSchema },
        errors: tokenErrors,
      },
    },
    async (request, reply) => {
      await mail.verifyEmail(request.body.token);
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/user/verify-email/send',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: 'Mail a new verification link to your address ("Send again")',
        response: { 202: mailAcceptedSchema },
        errors: {
          ...mailOff,
          403: 'A demo account (FORBIDDEN).',
          429: 'Too many verification mails for this account this hour (RATE_LIMITED, error.retryAfter).',
        },
      },
    },
    async (request, reply) =>
      reply.status(202).send({ message: await mail.resendVerification(currentUser(request)) }),
  );

  r.get(
    '/user/mail-settings',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "How you get the inbox's events by mail",
        response: { 200: mailSettingsSchema },
      },
    },
    async (request) => mail.settings(currentUser(request)),
  );

  r.put(
    '/user/mail-settings',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Choose how you get the inbox's events by mail: each event, a daily digest, or never",
        body: mailSettingsSchema,
        response: { 200: mailSettingsSchema },
        errors: { 403: 'A demo account (FORBIDDEN).' },
      },
    },
    async (request) => mail.saveSettings(currentUser(request), request.body),
  );
}
