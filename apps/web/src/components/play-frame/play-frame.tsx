import { limits } from '@reskin/contract';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Loading } from '../ui/loading';
import { documentIsolation, isolationSettled, reloadForIsolation } from './document-isolation';
import { clampFrameSize, createThrottle, playFrameSize, type FrameSize } from './play-frame-size';
import './play-frame.css';

/** DESIGN.md "Play": scripts, its own origin's storage and pointer lock; nothing else (no top navigation, forms, pop-ups). */
export const playFrameSandbox = 'allow-scripts allow-same-origin allow-pointer-lock';
export const playFrameAllow = 'autoplay; fullscreen; gamepad';
/** A game served cross-origin isolated (decision 0022) gets SharedArrayBuffer in its frame only with this too. */
export const isolatedPlayFrameAllow = `${playFrameAllow}; cross-origin-isolated`;

const keyStepPx = 10;

interface PlayFrameProps {
  /** A play URL on the play origin (it carries its own capability token). */
  src: string;
  gameWidth: number;
  gameHeight: number;
  title: string;
  /** The game is served cross-origin isolated (the play path's `isolated`): the frame, and this page, must be too. */
  isolated?: boolean;
  /** The frame's document and what it loads at once have loaded (its load event). */
  onLoad?: () => void;
}

interface Drag {
  pointerId: number;
  startX: number;
  startY: number;
  start: FrameSize;
}

/**
 * A play screen's game frame. For a game served cross-origin isolated the frame allows `cross-origin-isolated`,
 * and a document that is not isolated (a play screen reached by a client-side navigation) first loads itself again.
 */
export function PlayFrame({ isolated = false, ...frame }: PlayFrameProps) {
  const state = documentIsolation(isolated);
  useEffect(() => {
    if (state === 'reload') reloadForIsolation();
    else if (state === 'ready') isolationSettled();
  }, [state]);
  if (state === 'reload') return <Loading />;
  return (
    <>
      {state === 'unavailable' && (
        <Alert variant="warning">
          This game needs cross-origin isolation (SharedArrayBuffer), which this page did not get: it needs
          HTTPS and a browser that supports COEP credentialless (Chromium, Firefox). It may not start.
        </Alert>
      )}
      <GameFrame {...frame} allow={isolated ? isolatedPlayFrameAllow : playFrameAllow} />
    </>
  );
}

/**
 * The sandboxed game frame of the play screens: game width + 50 by height + 50 px, resizable with the corner
 * handle (pointer, throttled to 50 ms, or arrow keys), and focused on load and on click so the game gets the
 * keyboard at once.
 */
function GameFrame({
  src,
  gameWidth,
  gameHeight,
  title,
  allow,
  onLoad,
}: Omit<PlayFrameProps, 'isolated'> & { allow: string }) {
  const [forGame, setForGame] = useState({ gameWidth, gameHeight });
  const [size, setSize] = useState(() => playFrameSize(gameWidth, gameHeight));
  if (forGame.gameWidth !== gameWidth || forGame.gameHeight !== gameHeight) {
    // Another game: start again from its own size.
    setForGame({ gameWidth, gameHeight });
    setSize(playFrameSize(gameWidth, gameHeight));
  }
  const [resizing, setResizing] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  const drag = useRef<Drag | null>(null);
  const [throttle] = useState(() => createThrottle<FrameSize>(setSize, limits.resizeThrottleMs));

  useEffect(() => () => throttle.cancel(), [throttle]);

  const focusFrame = () => {
    frame.current?.focus();
    // Cross-origin frames allow focus(); it moves the keyboard into the game.
    frame.current?.contentWindow?.focus();
  };

  const startDrag = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, start: size };
    setResizing(true);
  };

  const moveDrag = (event: PointerEvent<HTMLButtonElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    throttle.push(
      clampFrameSize({
        width: current.start.width + event.clientX - current.startX,
        height: current.start.height + event.clientY - current.startY,
      }),
    );
  };

  const endDrag = (event: PointerEvent<HTMLButtonElement>) => {
    if (drag.current?.pointerId !== event.pointerId) return;
    moveDrag(event);
    throttle.flush();
    drag.current = null;
    setResizing(false);
    focusFrame();
  };

  const resizeByKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const steps: Record<string, [number, number]> = {
      ArrowLeft: [-keyStepPx, 0],
      ArrowRight: [keyStepPx, 0],
      ArrowUp: [0, -keyStepPx],
      ArrowDown: [0, keyStepPx],
    };
    const step = steps[event.key];
    if (!step) return;
    event.preventDefault();
    setSize((current) =>
      clampFrameSize({ width: current.width + step[0], height: current.height + step[1] }),
    );
  };

  return (
    <div
      className={`play-frame${resizing ? ' play-frame-resizing' : ''}`}
      style={{ width: size.width + 2, height: size.height + 2 }}
      onClick={focusFrame}
    >
      <iframe
        ref={frame}
        src={src}
        title={title}
        width={size.width}
        height={size.height}
        sandbox={playFrameSandbox}
        allow={allow}
        referrerPolicy="no-referrer"
        onLoad={() => {
          focusFrame();
          onLoad?.();
        }}
      />
      <button
        type="button"
        className="play-frame-handle"
        aria-label="Resize the game frame (drag, or arrow keys)"
        title="Drag to resize"
        onPointerDown={startDrag}
        onPointerMove={moveDrag}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onKeyDown={resizeByKey}
      />
    </div>
  );
}
