import { describe, expect, it } from 'vitest';
import { errorCodes } from '@reskin/contract';
import { AppError, errorName, noFile, requestInvalid, withDetail } from './errors';

describe('AppError', () => {
  it('takes its envelope name from its status, one table for every answer', () => {
    expect(new AppError(422, errorCodes.validationFailed, 'x').errorName).toBe('UnprocessableEntityError');
    expect(new AppError(423, errorCodes.versionLocked, 'x').errorName).toBe('LockedError');
    expect(new AppError(410, errorCodes.tokenUsed, 'x').errorName).toBe('GoneError');
    expect(new AppError(408, errorCodes.uploadTooSlow, 'x').errorName).toBe('RequestTimeoutError');
    // A status without a name of its own takes its class's.
    expect(errorName(418)).toBe('BadRequestError');
    expect(errorName(599)).toBe('InternalServerError');
  });

  it('repeats its message in its one detail (withDetail)', () => {
    const error = withDetail(409, errorCodes.versionLimit, 'Six already.', '/userGamesId', 'version_limit');
    expect(error).toMatchObject({ statusCode: 409, code: 'VERSION_LIMIT', message: 'Six already.' });
    expect(error.details).toEqual([{ path: '/userGamesId', code: 'version_limit', message: 'Six already.' }]);
  });

  it('answers a request value that breaks its schema 422, or 400 in the path, as VALIDATION_FAILED', () => {
    const detail = { path: '/frame', code: 'required', message: 'Missing.' };
    expect(requestInvalid('body', [detail])).toMatchObject({
      statusCode: 422,
      code: errorCodes.validationFailed,
      message: 'The request body is invalid.',
      details: [detail],
    });
    expect(requestInvalid('params', []).statusCode).toBe(400);
  });

  it('refuses an upload without a file at /file, saying what to choose', () => {
    expect(noFile('No file was sent.', 'Choose a file.')).toMatchObject({
      statusCode: 422,
      code: errorCodes.validationFailed,
      details: [{ path: '/file', code: 'required', message: 'Choose a file.' }],
    });
  });
});
