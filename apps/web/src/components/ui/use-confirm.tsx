import { useCallback, useRef, useState, type ComponentProps } from 'react';
import { ConfirmDialog } from './confirm-dialog';

type ConfirmVariant = ComponentProps<typeof ConfirmDialog>['confirmVariant'];

interface Asked {
  question: string;
  confirmVariant: ConfirmVariant;
}

/**
 * The one confirmation of a screen: `if (await confirm(question)) act()`, with `dialog` rendered once by the
 * screen. The hook owns what every screen kept itself: the question asked, whether the dialog shows (apart from
 * the question, so it stays on screen while the dialog fades out) and the answer. A new question answers an
 * open one with Cancel.
 */
export function useConfirm() {
  const [asked, setAsked] = useState<Asked | null>(null);
  const [show, setShow] = useState(false);
  const answer = useRef<((confirmed: boolean) => void) | null>(null);

  const settle = useCallback((confirmed: boolean) => {
    setShow(false);
    answer.current?.(confirmed);
    answer.current = null;
  }, []);

  const confirm = useCallback((question: string, options: { confirmVariant?: ConfirmVariant } = {}) => {
    answer.current?.(false);
    setAsked({ question, confirmVariant: options.confirmVariant });
    setShow(true);
    return new Promise<boolean>((resolve) => (answer.current = resolve));
  }, []);

  const dialog = (
    <ConfirmDialog
      show={show}
      question={asked?.question ?? ''}
      confirmVariant={asked?.confirmVariant}
      onCancel={() => settle(false)}
      onConfirm={() => settle(true)}
    />
  );

  return { confirm, dialog };
}
