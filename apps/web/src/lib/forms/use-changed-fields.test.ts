import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useChangedFields, visibleError } from './use-changed-fields';

describe('useChangedFields', () => {
  it('remembers every field changed once, and only those', () => {
    const { result } = renderHook(() => useChangedFields<'email' | 'password'>());
    expect(result.current.isChanged('email')).toBe(false);

    act(() => result.current.markChanged('email'));
    act(() => result.current.markChanged('email'));

    expect(result.current.isChanged('email')).toBe(true);
    expect(result.current.isChanged('password')).toBe(false);
  });
});

describe('visibleError', () => {
  it('shows an error only for a changed field', () => {
    expect(visibleError(false, { message: 'bad' })).toBeUndefined();
    expect(visibleError(true, { message: 'bad' })).toBe('bad');
    expect(visibleError(true, undefined)).toBeUndefined();
  });
});
