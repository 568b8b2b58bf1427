import { toast } from 'react-toastify/unstyled';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { notifyFailure } from './toasts';

vi.mock('react-toastify/unstyled', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

beforeEach(() => vi.mocked(toast.error).mockClear());

describe('notifyFailure', () => {
  it('shows the product message in the danger style', () => {
    notifyFailure(
      'email already exists',
      new ApiError(409, 'USERNAME_EXISTS', 'username already exists', {}),
    );
    expect(toast.error).toHaveBeenCalledExactlyOnceWith('email already exists');
  });

  it('does not repeat what the client error toast for the same failure already said', () => {
    notifyFailure('email already exists', new ApiError(409, 'EMAIL_EXISTS', 'Email already exists', {}));
    expect(toast.error).not.toHaveBeenCalled();
  });
});
