import { toastSettings } from '@reskin/contract';
import { Slide, ToastContainer, toast } from 'react-toastify/unstyled';
import { ApiError } from './api-error';

/** The one toast container, with SPEC §9's settings (contract `toastSettings`). */
export function ToastHost() {
  return (
    <ToastContainer
      position={toastSettings.position}
      autoClose={toastSettings.displayMs}
      newestOnTop={toastSettings.newestOnTop}
      closeOnClick={toastSettings.tapToDismiss}
      hideProgressBar={!toastSettings.progressBar}
      closeButton={toastSettings.closeButton}
      pauseOnHover
      transition={Slide}
    />
  );
}

interface TitledMessageProps {
  title: string;
  body: string;
}

function TitledMessage({ title, body }: TitledMessageProps) {
  return (
    <div>
      <strong className="d-block">{title}</strong>
      <span>{body}</span>
    </div>
  );
}

/** An error notification with a bold title and a body (SPEC §8, the client's generic error toast). */
export function notifyError(title: string, body: string): void {
  toast.error(<TitledMessage title={title} body={body} />);
}

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * A product message in the danger style (SPEC §8, e.g. 'email already exists'), for the failure `cause`.
 * Skipped when the client's error toast for that failure already says exactly this.
 */
export function notifyFailure(message: string, cause?: unknown): void {
  if (cause instanceof ApiError && sameText(cause.message, message)) return;
  toast.error(message);
}

export function notifySuccess(message: string): void {
  toast.success(message);
}
