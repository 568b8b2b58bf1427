import { errorCodes } from '@reskin/contract';
import { ApiError, envelopeError } from '../api-error';

/**
 * The messages a 422 VALIDATION_FAILED gives for fields of a form, by field name (a detail's path `/password` names
 * the field `password`): rules only the server can check (a password on the server's list of common
 * passwords) show under their field like the contract's own rules. Empty for any other failure.
 */
export function serverFieldErrors<TField extends string>(
  error: unknown,
  fields: readonly TField[],
): Map<TField, string> {
  const found = new Map<TField, string>();
  if (!(error instanceof ApiError) || error.status !== 422) return found;
  const envelope = envelopeError(error.body);
  if (envelope?.code !== errorCodes.validationFailed) return found;
  for (const detail of envelope.details ?? []) {
    const field = fields.find((name) => detail.path === `/${name}`);
    if (field !== undefined && !found.has(field)) found.set(field, detail.message);
  }
  return found;
}
