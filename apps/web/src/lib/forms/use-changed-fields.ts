import { useCallback, useState } from 'react';
import type {
  FieldErrors,
  FieldValues,
  Path,
  RegisterOptions,
  UseFormRegister,
  UseFormRegisterReturn,
} from 'react-hook-form';

/**
 * Which fields the user has changed at least once: Angular's "no longer pristine" (SPEC §4). Unlike
 * react-hook-form's dirtyFields it never resets when the value returns to its default, so a field typed
 * into and cleared again still shows as invalid.
 */
export function useChangedFields<TName extends string>() {
  const [changed, setChanged] = useState<ReadonlySet<TName>>(() => new Set<TName>());

  const markChanged = useCallback((name: TName) => {
    setChanged((previous) => (previous.has(name) ? previous : new Set([...previous, name])));
  }, []);

  const isChanged = useCallback((name: TName) => changed.has(name), [changed]);

  return { markChanged, isChanged };
}

/** The message to show under a field: its error, once the field is no longer pristine. */
export function visibleError(changed: boolean, error: { message?: string } | undefined): string | undefined {
  return changed ? error?.message : undefined;
}

/**
 * react-hook-form's register, plus marking the field changed on every user edit; `error(name)` is the field's
 * message once it is no longer pristine (decision 0008).
 */
export function useTrackedForm<TValues extends FieldValues>(
  register: UseFormRegister<TValues>,
  errors: FieldErrors<TValues> = {},
) {
  const { markChanged, isChanged } = useChangedFields<Path<TValues>>();

  const track = useCallback(
    (
      name: Path<TValues>,
      options?: RegisterOptions<TValues, Path<TValues>>,
    ): UseFormRegisterReturn<Path<TValues>> => {
      const registration = register(name, options);
      return {
        ...registration,
        onChange: (event) => {
          markChanged(name);
          return registration.onChange(event);
        },
      };
    },
    [register, markChanged],
  );

  const error = (name: Path<TValues>) =>
    visibleError(isChanged(name), (errors as Record<string, { message?: string } | undefined>)[name]);

  return { track, error, markChanged, isChanged };
}
