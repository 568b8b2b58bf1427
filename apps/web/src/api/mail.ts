import {
  mailAcceptedSchema,
  mailSettingsSchema,
  passwordResetResponseSchema,
  type ForgotPasswordBody,
  type MailSettings,
  type ResetPasswordBody,
  type VerifyEmailBody,
} from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiParse, apiRequest } from '../lib/api-client';
import { accountKeys } from './account';
import { useApiMutation } from './mutation';

/** Mail: forgot and reset password, verify an address, the mail setting; and the own password change. */
export const mailKeys = { settings: ['mail-settings'] as const };

/** POST /user/forgot-password: answers alike whether or not an account has the email. */
export const forgotPassword = (body: ForgotPasswordBody) =>
  apiParse(mailAcceptedSchema, '/user/forgot-password', { method: 'POST', body, action: 'save' });

/** POST /user/reset-password: a 400/410 is the link's fault, not a lost session. */
export const resetPassword = (body: ResetPasswordBody) =>
  apiRequest('/user/reset-password', { method: 'POST', body, logoutOnUnauthorized: false, action: 'save' });

/** POST /user/verify-email. */
export const verifyEmail = (body: VerifyEmailBody) =>
  apiRequest('/user/verify-email', { method: 'POST', body, logoutOnUnauthorized: false, action: 'save' });

/** POST /user/verify-email/send: "Send again". */
export const resendVerification = () =>
  apiParse(mailAcceptedSchema, '/user/verify-email/send', { method: 'POST', action: 'save' });

/** PUT /user/update/password with the current and the new password: answers the token the session goes on with. */
export const changePassword = (body: { oldPassword: string; newPassword: string }) =>
  apiParse(passwordResetResponseSchema, '/user/update/password', { method: 'PUT', body, action: 'save' });

export const getMailSettings = () => apiParse(mailSettingsSchema, '/user/mail-settings');
export const saveMailSettings = (body: MailSettings) =>
  apiParse(mailSettingsSchema, '/user/mail-settings', { method: 'PUT', body, action: 'save' });

export const useForgotPassword = () => useApiMutation(['forgot-password'], forgotPassword);
export const useResetPassword = () => useApiMutation(['reset-password'], resetPassword);
export const useVerifyEmail = () => useApiMutation(['verify-email'], verifyEmail, () => [accountKeys.all]);
export const useResendVerification = () => useApiMutation(['verify-email-send'], resendVerification);
export const useChangePassword = () => useApiMutation([...accountKeys.all, 'password'], changePassword);
export const useMailSettings = (enabled: boolean) =>
  useQuery({ queryKey: mailKeys.settings, queryFn: getMailSettings, enabled });
export const useSaveMailSettings = () =>
  useApiMutation(['mail-settings', 'save'], saveMailSettings, () => [mailKeys.settings]);
