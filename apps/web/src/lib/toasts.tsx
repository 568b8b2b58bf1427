import { toastSettings } from '@reskin/contract';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { ToastContainer, cssTransition, toast } from 'react-toastify/unstyled';

/**
 * react-toastify's Slide without the height collapse it adds after the slide: SPEC §9 closes a toast with
 * one animation of `toastSettings.animationMs` (the container's toastStyle sets its duration).
 */
const slideOut = cssTransition({
  enter: 'Toastify--animate Toastify__slide-enter',
  exit: 'Toastify--animate Toastify__slide-exit',
  appendPosition: true,
  collapse: false,
});

/**
 * The one toast container, with SPEC §9's settings (contract `toastSettings`). Closing by time is
 * ToastLifetime's job, so the container's own autoClose is off.
 */
export function ToastHost() {
  return (
    <ToastContainer
      position={toastSettings.position}
      autoClose={false}
      newestOnTop={toastSettings.newestOnTop}
      closeOnClick={toastSettings.tapToDismiss}
      hideProgressBar={!toastSettings.progressBar}
      closeButton={toastSettings.closeButton}
      transition={slideOut}
      toastStyle={{ animationDuration: `${toastSettings.animationMs}ms` }}
    />
  );
}

interface ToastLifetimeProps {
  children: ReactNode;
  /** Given by react-toastify to the content element of every toast. */
  closeToast?: () => void;
  /** Told when the toast starts to close by its time (before its exit animation). */
  onClosing?: () => void;
}

/**
 * SPEC §9's lifetime of one toast (the old client's ngx-toastr timeOut and extendedTimeOut): it closes
 * `displayMs` after it shows; it stays while the pointer is on it; `extendedAfterHoverMs` after the pointer
 * leaves, it closes. react-toastify's autoClose cannot say this: after a hover it resumes the time that
 * was left, and it runs on a CSS animation, which a test's fake clock does not reach. The timer starts in a
 * layout effect, in the same commit that puts the toast on the page: a passive effect could run later, so
 * the toast's time would not start when it shows.
 */
function ToastLifetime({ children, closeToast, onClosing }: ToastLifetimeProps) {
  const content = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const toastElement = content.current?.closest('.Toastify__toast');
    if (!toastElement || !closeToast) return;
    const close = () => {
      onClosing?.();
      closeToast();
    };
    let timer = setTimeout(close, toastSettings.displayMs);
    const stay = () => clearTimeout(timer);
    const closeSoon = () => {
      clearTimeout(timer);
      timer = setTimeout(close, toastSettings.extendedAfterHoverMs);
    };
    toastElement.addEventListener('mouseenter', stay);
    toastElement.addEventListener('mouseleave', closeSoon);
    return () => {
      clearTimeout(timer);
      toastElement.removeEventListener('mouseenter', stay);
      toastElement.removeEventListener('mouseleave', closeSoon);
    };
  }, [closeToast, onClosing]);

  return <div ref={content}>{children}</div>;
}

/** The words of the toasts on the page that are not closing: an identical one is not shown meanwhile. */
const showing = new Set<string>();

/**
 * Every toast of the app goes through here, so each one gets SPEC §9's lifetime. `words` names what it says: while
 * a toast of the same words is on the page and not closing, no second one shows (decision 0052: two failed requests
 * of one typeahead, or of a screen's parallel reads, make one "No connection" toast, not a stack of identical ones).
 * One that is closing frees its words at once, so the same failure a moment later is a toast of its own.
 */
function show(kind: 'success' | 'error' | 'warning', content: ReactNode, words?: string): void {
  if (words !== undefined) {
    if (showing.has(words)) return;
    showing.add(words);
  }
  const release = () => {
    if (words !== undefined) showing.delete(words);
  };
  // onClose: closed another way (its close button, a click, dismissed with the others), once it has left the page.
  toast[kind](<ToastLifetime onClosing={release}>{content}</ToastLifetime>, { onClose: release });
}

/** The words of an error toast, so only identical ones are one. */
const errorWords = (...texts: (string | undefined)[]) =>
  `error:${texts.map((text) => text ?? '').join('\u0000')}`;

interface TitledMessageProps {
  title: string;
  body: string;
  reason?: string;
}

function TitledMessage({ title, body, reason }: TitledMessageProps) {
  return (
    <>
      <strong className="d-block toast-title">{title}</strong>
      <span className="d-block toast-text">{body}</span>
      {reason !== undefined && <span className="d-block toast-reason">{reason}</span>}
    </>
  );
}

/** Two texts say the same when they differ only in case, surrounding space and closing punctuation. */
function sameText(a: string, b: string): boolean {
  const plain = (text: string) =>
    text
      .trim()
      .toLowerCase()
      .replace(/[.!?]+$/, '');
  return plain(a) === plain(b);
}

/**
 * The one error toast of a failure (one toast per event): a title in words (lib/failure-titles.ts), the
 * body (SPEC §8's product message where it has one, else the server's message) and, under it, the server's reason
 * when it says something the body does not (a disabled account's login: 'invalid email or password!', then why).
 */
export function notifyError(title: string, body: string, reason?: string): void {
  const extra = reason === undefined || reason.trim() === '' || sameText(reason, body) ? undefined : reason;
  show('error', <TitledMessage title={title} body={body} reason={extra} />, errorWords(title, body, extra));
}

/** A refusal the browser makes itself before sending anything (SPEC §5's upload rules), in the danger style. */
export function notifyFailure(message: string): void {
  show('error', message, errorWords(message));
}

export function notifySuccess(message: string): void {
  show('success', message);
}

/** A product message in the warning style (SPEC §8, e.g. 'Game editing cancelled.'). */
export function notifyWarning(message: string): void {
  show('warning', message);
}
