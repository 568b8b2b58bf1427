import { useCallback, useRef, type ChangeEvent, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';

interface FilePickerButtonProps {
  /** The file input's id (browser tests hand it files). */
  id: string;
  children: ReactNode;
  /** Chooses a whole folder (its files keep their paths relative to it). */
  folder?: boolean;
  multiple?: boolean;
  accept?: string;
  disabled?: boolean;
  size?: 'sm';
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

/**
 * "Choose folder", "Choose files", "Choose .zip": a real button, in the tab order with Bootstrap's focus ring, that
 * opens the browser's file chooser of a file input kept out of sight and out of the tab order (decision 0051). A
 * label styled as a button is not focusable itself, and the input it points to is invisible when focused.
 */
export function FilePickerButton({
  id,
  children,
  folder = false,
  disabled,
  size,
  onChange,
  ...input
}: FilePickerButtonProps) {
  const element = useRef<HTMLInputElement | null>(null);
  // React has no typed prop for these; a folder picker needs them on the element.
  const attach = useCallback(
    (node: HTMLInputElement | null) => {
      element.current = node;
      if (node && folder) {
        node.setAttribute('webkitdirectory', '');
        node.setAttribute('directory', '');
      }
    },
    [folder],
  );
  return (
    <>
      <Button
        variant="outline-primary"
        size={size}
        disabled={disabled}
        onClick={() => element.current?.click()}
      >
        {children}
      </Button>
      <input
        ref={attach}
        id={id}
        type="file"
        className="d-none"
        tabIndex={-1}
        disabled={disabled}
        onChange={onChange}
        {...input}
      />
    </>
  );
}
