import { useEffect, useRef, type Ref } from 'react';
import { IMaskInput } from 'react-imask';

export const phoneMask = '(000) 000-0000';

interface PhoneInputProps {
  id: string;
  name: string;
  /** The unmasked digits. */
  value: string;
  onDigitsChange: (digits: string) => void;
  /** Every edit the user makes, also a refused one (a letter): the field is no longer pristine. */
  onEdit: () => void;
  onBlur: () => void;
  inputRef: Ref<HTMLInputElement>;
  invalid: boolean;
}

/** A phone input with the mask (000) 000-0000 whose value is the unmasked digits (DESIGN.md "Client"). */
export function PhoneInput({
  id,
  name,
  value,
  onDigitsChange,
  onEdit,
  onBlur,
  inputRef,
  invalid,
}: PhoneInputProps) {
  const wrapper = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    const element = wrapper.current;
    if (!element) return;
    // IMask moves the caret on focus, which collapses a selection made just before focusing (select-all,
    // then delete, as a browser's or a test driver's "clear field" does) so only one digit got deleted.
    // Stopping the focus event before it reaches the input keeps that selection; a click still aligns.
    const keepSelection = (event: FocusEvent) => event.stopPropagation();
    element.addEventListener('focus', keepSelection, true);
    return () => element.removeEventListener('focus', keepSelection, true);
  }, []);

  return (
    <span ref={wrapper} className="d-block">
      <IMaskInput
        id={id}
        name={name}
        type="tel"
        mask={phoneMask}
        placeholder={phoneMask}
        unmask
        // Only digits reach the mask: a letter is refused and leaves no '(' behind; a pasted
        // '(555) 123-4567' still fills it.
        prepareChar={(chars: string) => chars.replace(/\D/g, '')}
        value={value}
        inputRef={inputRef}
        onAccept={(digits: string) => {
          // The mask also reports programmatic updates; only a real edit is a change.
          if (digits !== value) onDigitsChange(digits);
        }}
        onInput={onEdit}
        onBlur={onBlur}
        className={invalid ? 'form-control is-invalid' : 'form-control'}
      />
    </span>
  );
}
