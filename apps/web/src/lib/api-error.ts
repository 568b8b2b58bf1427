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
}
