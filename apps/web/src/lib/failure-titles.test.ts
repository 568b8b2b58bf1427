import { errorCodes } from '@reskin/contract';
import { describe, expect, it } from 'vitest';
import { actionOf, failureTitle, failureTitles } from './failure-titles';

/** A title in words: no error code (UPPER_SNAKE) and no class name (FooError). */
const inWords = /^(?![A-Z_]+$)(?!.*[a-z]Error\b)[A-Z][a-z]+( [a-z]+)*$/;

describe('failure titles', () => {
  it('names the messages of the issue in words', () => {
    expect(failureTitle({ status: 409, code: errorCodes.usernameExists, action: 'save' })).toBe(
      'Already in use',
    );
    expect(failureTitle({ status: 401, code: errorCodes.invalidCredentials, action: 'login' })).toBe(
      'Login failed',
    );
    expect(failureTitle({ status: 401, code: errorCodes.accountDisabled, action: 'login' })).toBe(
      'Login failed',
    );
    expect(failureTitle({ status: 429, code: errorCodes.rateLimited, action: 'login' })).toBe(
      'Too many attempts',
    );
    expect(failureTitle({ status: 0, action: 'login' })).toBe('No connection');
    // The account screen's current password.
    expect(failureTitle({ status: 403, code: errorCodes.invalidCredentials, action: 'save' })).toBe(
      'Wrong password',
    );
    expect(failureTitle({ status: 422, code: errorCodes.validationFailed, action: 'upload' })).toBe(
      'Upload failed',
    );
    expect(failureTitle({ status: 401, code: errorCodes.unauthorized, action: 'load' })).toBe(
      failureTitles.sessionEnded,
    );
    expect(failureTitles.sessionEnded).toBe('Session ended');
  });

  it('goes by code first, then by status, then by what the request was for', () => {
    expect(failureTitle({ status: 423, code: errorCodes.versionLocked, action: 'upload' })).toBe(
      'Version locked',
    );
    expect(failureTitle({ status: 423, code: 'SOMETHING_NEW', action: 'upload' })).toBe('Not allowed');
    expect(failureTitle({ status: 403, code: errorCodes.forbidden, action: 'save' })).toBe('Not allowed');
    expect(failureTitle({ status: 404, code: errorCodes.notFound, action: 'load' })).toBe('Not found');
    expect(failureTitle({ status: 429, action: 'save' })).toBe('Too many attempts');
    expect(failureTitle({ status: 503, code: errorCodes.databaseUnavailable, action: 'load' })).toBe(
      'Server unavailable',
    );
    expect(failureTitle({ status: 500, action: 'load' })).toBe('Server error');
    expect(failureTitle({ status: 502, action: 'save' })).toBe('Server error');
    expect(failureTitle({ status: 0, action: 'upload' })).toBe('No connection');
    expect(failureTitle({ status: 409, code: errorCodes.conflict, action: 'save' })).toBe('Could not save');
    expect(failureTitle({ status: 400, code: errorCodes.invalidFilter, action: 'load' })).toBe(
      'Could not load',
    );
    expect(failureTitle({ action: 'upload' })).toBe('Upload failed');
  });

  it('a read loads, anything else saves', () => {
    expect(actionOf('GET')).toBe('load');
    expect(actionOf('HEAD')).toBe('load');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(actionOf(method)).toBe('save');
  });

  it('every title of the table is in words, never a code or a class name', () => {
    const titles = [
      failureTitles.sessionEnded,
      failureTitles.serverError,
      failureTitles.cancelled,
      ...Object.values(failureTitles.byCode),
      ...Object.values(failureTitles.byStatus),
      ...Object.values(failureTitles.byAction),
    ];
    for (const title of titles) expect(title).toMatch(inWords);
    for (const code of Object.values(errorCodes)) {
      for (const action of ['load', 'save', 'upload', 'login'] as const) {
        expect(failureTitle({ status: 400, code, action })).toMatch(inWords);
      }
    }
  });
});
