import { z } from 'zod';
import { idSchema, pathIdSchema } from './ids';
import { limits } from './limits';
import { validationMessages as m } from './messages';
import { roleTypeIds } from './roles';
import { isSafeIdentity, isSafeName } from './text-safety';

/**
 * Letters, digits, underscore, hyphen and spaces (SPEC §5's "whitespace", as the plain space only:
 * no tabs, newlines or no-break spaces; the message also names a period, the rule does not).
 */
export const usernamePattern = /^[A-Za-z0-9_\- ]+$/;
/** A plain, practical email check: something@something.tld, no spaces. */
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Phone numbers travel and are stored as their 10 digits; the mask (000) 000-0000 is presentation. */
export const phonePattern = /^\d{10}$/;

/**
 * Usernames and emails: control, bidi and invisible characters are refused as sent, then the text is
 * NFKC-normalised (text-safety.ts), so full-width look-alikes become the plain letters they look like.
 */
export const usernameSchema = z
  .string({ error: m.usernameLength })
  .refine(isSafeIdentity, { error: m.unsafeCharacters })
  .normalize('NFKC')
  .trim()
  .min(limits.username.min, { error: m.usernameLength })
  .max(limits.username.max, { error: m.usernameLength })
  .regex(usernamePattern, { error: m.usernamePattern });

export const emailSchema = z
  .string({ error: m.email })
  .refine(isSafeIdentity, { error: m.unsafeCharacters })
  .normalize('NFKC')
  .trim()
  .min(limits.email.min, { error: m.email })
  .max(limits.email.max, { error: m.email })
  .regex(emailPattern, { error: m.email });

export const passwordSchema = z
  .string({ error: m.password })
  .min(limits.password.min, { error: m.password })
  .max(limits.password.max, { error: m.password });

export const firstNameSchema = z
  .string({ error: m.firstName })
  .refine(isSafeName, { error: m.unsafeCharacters })
  .trim()
  .min(limits.personName.min, { error: m.firstName })
  .max(limits.personName.max, { error: m.firstName });

export const lastNameSchema = z
  .string({ error: m.lastName })
  .refine(isSafeName, { error: m.unsafeCharacters })
  .trim()
  .min(limits.personName.min, { error: m.lastName })
  .max(limits.personName.max, { error: m.lastName });

export const phoneSchema = z.string({ error: m.phone }).regex(phonePattern, { error: m.phone });

export const roleTypeIdSchema = z.union(roleTypeIds.map((id) => z.literal(id)));

/** POST /user/login */
export const loginBodySchema = z.object({
  email: z
    .string({ error: m.loginEmail })
    .normalize('NFKC')
    .trim()
    .min(limits.email.min, { error: m.loginEmail })
    .max(limits.email.max, { error: m.loginEmail }),
  password: z
    .string({ error: m.loginPassword })
    .min(1, { error: m.loginPassword })
    .max(limits.password.max, { error: m.password }),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const tokenResponseSchema = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** POST /user/signup: the registration data (the checkbox field is removed before sending). */
export const signupBodySchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  firstName: firstNameSchema,
  lastName: lastNameSchema,
  phone: phoneSchema,
  dataProtectionRegulationVersion: z.literal(limits.dataProtectionRegulationVersion, {
    error: m.dataProtection,
  }),
});
export type SignupBody = z.infer<typeof signupBodySchema>;

/** The register form: the signup body plus the data-protection checkbox, minus the version. */
export const registerFormSchema = signupBodySchema.omit({ dataProtectionRegulationVersion: true }).extend({
  dataProtection: z.literal(true, { error: m.dataProtection }),
});
export type RegisterForm = z.infer<typeof registerFormSchema>;

/**
 * PUT /user/update: the account form (username and email; role is read-only). Answers a new token. A new email
 * also needs `currentPassword`, the account's password now (emailChangeNeedsPassword), and ends the
 * account's other sessions; a username alone needs none.
 */
export const updateUserBodySchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  currentPassword: z
    .string({ error: m.currentPasswordRequired })
    .max(limits.password.max, { error: m.currentPasswordWrong })
    .optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

/** Whether PUT /user/update changes the login email (emails are compared as stored: lower-cased), so it needs the current password. */
export function emailChangeNeedsPassword(currentEmail: string, newEmail: string): boolean {
  return currentEmail.toLowerCase() !== newEmail.toLowerCase();
}

/**
 * The account form for a user whose email is `currentEmail`: the body's rules, plus the current password when the
 * email changes (an empty field counts as none).
 */
export function accountFormSchema(currentEmail: string) {
  return updateUserBodySchema.superRefine((value, context) => {
    if (emailChangeNeedsPassword(currentEmail, value.email) && !value.currentPassword) {
      context.addIssue({ code: 'custom', path: ['currentPassword'], message: m.currentPasswordRequired });
    }
  });
}

/**
 * PUT /user/update/password. An admin resets another user's password with { userId } and gets the
 * generated password back once; anyone changes their own with { oldPassword, newPassword }.
 */
export const adminPasswordResetBodySchema = z.object({ userId: idSchema }).strict();
export const ownPasswordChangeBodySchema = z
  .object({ oldPassword: z.string().min(1).max(limits.password.max), newPassword: passwordSchema })
  .strict();
export const updatePasswordBodySchema = z.union([adminPasswordResetBodySchema, ownPasswordChangeBodySchema]);
export type UpdatePasswordBody = z.infer<typeof updatePasswordBodySchema>;
/**
 * The answer of PUT /user/update/password: the generated password of an admin's reset, or null and a new session
 * token after a change of your own (every earlier token of the user stops working: decision 0013).
 */
export const passwordResetResponseSchema = z.object({
  password: z.string().nullable(),
  token: z.string().optional(),
});
export type PasswordResetResponse = z.infer<typeof passwordResetResponseSchema>;

/** A user as the API shows it. Password hashes never leave the server. */
export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  roleTypeId: z.number().int(),
  activated: z.boolean(),
  emailVerified: z.boolean(),
  dataProtectionRegulationVersion: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

/** POST /user/list answers users, possibly reduced to the requested `fields`. */
export const userListResponseSchema = z.array(userSchema.partial());

/** Columns of a user that a search query may name (where, fields, order). */
export const userSearchColumns = [
  'id',
  'username',
  'email',
  'firstName',
  'lastName',
  'phone',
  'roleTypeId',
  'activated',
  'emailVerified',
  'createdAt',
  'updatedAt',
] as const;

/** The user object inside the session token. */
export const tokenUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  roleTypeId: z.number().int(),
});
export type TokenUser = z.infer<typeof tokenUserSchema>;

/** GET /admin/update: what the services update did. */
export const servicesUpdateResponseSchema = z.object({
  regeneratedGameIds: z.array(z.number().int()),
  removedStoredFiles: z.number().int(),
  /** Games left Generating with no job to end them (their end could not be recorded), now Failed so Gen. can run. */
  failedGenerationIds: z.array(z.number().int()),
  /**
   * History entries of versions' files over VERSION_HISTORY_LIMIT (lowered since they were added) that it dropped,
   * oldest first (decision 0034); their objects are counted in removedStoredFiles.
   */
  removedHistoryEntries: z.number().int(),
  /** Versions' sprite sheets whose last frame change had no composition (a server stopped meanwhile), composed now (decision 0046). */
  recomposedSheets: z.number().int(),
});
export type ServicesUpdateResponse = z.infer<typeof servicesUpdateResponseSchema>;

/** GET /config: what the web app needs to know about this server. */
export const publicConfigSchema = z.object({
  productName: z.string(),
  playOrigin: z.string(),
  /** Whether this server sends mail (SMTP_URL): verification, forgot password, the inbox's mail. */
  mail: z.boolean(),
  /** The per-file upload limit (MAX_FILE_SIZE_MB), in bytes: the upload screen checks a zip's entries against it. */
  maxFileSizeBytes: z.number().int().positive(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** PUT /user/role/{id}/{roleId}: the role id is written like an id (digits only), then must be a role. */
export const roleParamsSchema = z.object({
  id: pathIdSchema,
  roleId: pathIdSchema.pipe(roleTypeIdSchema),
});
