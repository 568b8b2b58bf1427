import { createSigner, createVerifier } from 'fast-jwt';

/**
 * HS256 JWTs signed and checked synchronously (fast-jwt), for the session tokens, the play tokens and the download
 * tickets. jose ran every sign and verify as an asynchronous WebCrypto job that imported the key again each time
 * (about 200-250 us against about 10 us here). Verified tokens are cached (by token, until they expire,
 * at most `cacheSize`), so a token checked on every request is verified once.
 */
export class HmacJwt {
  private readonly signer: (payload: Record<string, unknown>) => string;
  private readonly verifier: (token: string) => unknown;

  /**
   * `expiresInMs` undefined: the payload names its own `exp` and no `iat` is added, so the same payload always
   * makes the same token (the play origin's shared links, decision 0037).
   */
  constructor(
    key: string | Buffer,
    expiresInMs: number | undefined,
    { cacheSize = 1000 }: { cacheSize?: number } = {},
  ) {
    this.signer =
      expiresInMs === undefined
        ? createSigner({ key, algorithm: 'HS256', noTimestamp: true })
        : createSigner({ key, algorithm: 'HS256', expiresIn: expiresInMs });
    this.verifier = createVerifier({ key, algorithms: ['HS256'], cache: cacheSize, requiredClaims: ['exp'] });
  }

  sign(payload: Record<string, unknown>): string {
    return this.signer(payload);
  }

  /** The payload of a valid token, or undefined for one that is malformed, tampered with or expired. */
  verify(token: string): unknown {
    try {
      return this.verifier(token);
    } catch {
      return undefined;
    }
  }
}
