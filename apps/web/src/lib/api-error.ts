import type { ErrorEnvelope } from '@reskin/contract';

function isDetail(detail: unknown): boolean {
  return (
    typeof detail === 'object' &&
    detail !== null &&
    typeof (detail as { message?: unknown }).message === 'string'
  );
}

/**
 * The `error` of an error envelope (the contract's ErrorEnvelope), or undefined for any other body (a proxy's
 * HTML page, plain text). Checked by hand, not with the contract's zod schema: the API client is part of the
 * landing page, which loads no schema library; the server writes every envelope through that schema.
 */
export function envelopeError(body: unknown): ErrorEnvelope['error'] | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const { error } = body;
  if (typeof error !== 'object' || error === null) return undefined;
  const { name, message, code, details } = error as Record<string, unknown>;
  if (typeof name !== 'string' || typeof message !== 'string') return undefined;
  if (code !== undefined && typeof code !== 'string') return undefined;
  if (details !== undefined && !(Array.isArray(details) && details.every(isDetail))) return undefined;
  return error as ErrorEnvelope['error'];
}

/** A failed API call, after the client has already shown its error toast (SPEC §8). */
export class ApiError extends Error {
  readonly status: number;
  /** The title of the toast that was shown; `message` is its body. */
  readonly title: string;
  readonly body: unknown;

  constructor(status: number, title: string, message: string, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.title = title;
    this.body = body;
  }

  /** The server's error.code (the contract's `errorCodes`), when the answer was an error envelope with one. */
  get code(): string | undefined {
    return envelopeError(this.body)?.code;
  }
}
