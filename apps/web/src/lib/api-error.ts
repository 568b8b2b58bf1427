import { errorEnvelopeSchema } from '@reskin/contract';

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
    return errorEnvelopeSchema.safeParse(this.body).data?.error.code;
  }
}
