import type { GameFile } from '@reskin/contract';
import { useRef, useState, type UIEvent } from 'react';
import Col from 'react-bootstrap/Col';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';

/** 1, 2 and 4 image pixels per screen pixel, or the whole image fitted into its well. */
const zooms = [1, 2, 4, 'fit'] as const;
type Zoom = (typeof zooms)[number];

export interface ComparedImage {
  src: string;
  alt: string;
  caption: string;
}

interface ImageCompareDialogProps {
  show: boolean;
  onClose: () => void;
  /** The game file compared (its path and pixel size). */
  image: Pick<GameFile, 'path' | 'width' | 'height'>;
  original: ComparedImage;
  replacement: ComparedImage;
}

/**
 * The app's image viewer: the image editor's larger view and the admin's view of a version's files
 *. The original and the replacement side by side at 1:1 pixels, zoomable to 2x and 4x with hard pixel
 * edges, or fitted. Scrolling one picture scrolls the other along, so the same spot of both stays in view. An
 * artist's file is only ever shown here as an `<img>`, never opened as a page: an image runs no script.
 */
export function ImageCompareDialog({ show, onClose, image, original, replacement }: ImageCompareDialogProps) {
  const [zoom, setZoom] = useState<Zoom>(1);
  const wells = useRef<(HTMLDivElement | null)[]>([]);

  const follow = (from: number) => (event: UIEvent<HTMLDivElement>) => {
    const other = wells.current[1 - from];
    if (!other) return;
    other.scrollLeft = event.currentTarget.scrollLeft;
    other.scrollTop = event.currentTarget.scrollTop;
  };

  const sized =
    zoom === 'fit' || image.width === null || image.height === null
      ? undefined
      : { width: image.width * zoom, height: image.height * zoom };

  return (
    <Modal show={show} onHide={onClose} size="xl" fullscreen="lg-down" aria-labelledby="image-compare-title">
      <Modal.Header closeButton>
        <Modal.Title id="image-compare-title" as="h2" className="fs-5 text-break">
          {image.path}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
          <ToggleButtonGroup
            type="radio"
            name="image-compare-zoom"
            value={zoom}
            onChange={(value: Zoom) => setZoom(value)}
            aria-label="Zoom"
          >
            {zooms.map((value) => (
              <ToggleButton
                key={value}
                id={`image-compare-zoom-${value}`}
                value={value}
                variant="outline-primary"
                size="sm"
              >
                {value === 'fit' ? 'Fit' : `${value}x`}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <span className="small text-body-secondary">
            {image.width ?? '?'} x {image.height ?? '?'} px
          </span>
        </div>
        <Row xs={1} md={2} className="g-3">
          {[original, replacement].map((picture, index) => (
            <Col key={picture.caption}>
              <figure className="mb-0">
                <div
                  ref={(element) => {
                    wells.current[index] = element;
                  }}
                  className={`image-well image-well-large${zoom === 'fit' ? ' fit' : ''}`}
                  onScroll={follow(index)}
                  tabIndex={0}
                  aria-label={`${picture.caption}, scrollable`}
                >
                  <img
                    src={picture.src}
                    alt={picture.alt}
                    style={{ ...sized, imageRendering: zoom === 'fit' || zoom === 1 ? 'auto' : 'pixelated' }}
                  />
                </div>
                <figcaption className="small text-body-secondary">{picture.caption}</figcaption>
              </figure>
            </Col>
          ))}
        </Row>
      </Modal.Body>
    </Modal>
  );
}
