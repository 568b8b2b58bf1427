import { atlasTexts, gridFrameCount, gridProblem, type Atlas, type AtlasGrid } from '@reskin/contract';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useDeclareGrid } from '../../../api/atlases';
import { notifySuccess } from '../../../lib/toasts';

/** The image a grid is declared on: a game image of known size. */
export interface GridImage {
  gameId: number;
  fileId: number;
  path: string;
  width: number;
  height: number;
}

interface GridDialogProps {
  /** The image; null: the dialog is closed. */
  image: GridImage | null;
  /** The grid the image has (the form starts from it), or null. */
  current: AtlasGrid | null;
  onClose: () => void;
  /** After the server declared it (the atlases query is already reloading). */
  onDeclared?: (atlas: Atlas) => void;
}

const fields = [
  { key: 'frameWidth', label: 'Frame width', min: 1 },
  { key: 'frameHeight', label: 'Frame height', min: 1 },
  { key: 'margin', label: 'Margin', min: 0 },
  { key: 'spacing', label: 'Spacing', min: 0 },
] as const;

type Draft = Record<keyof AtlasGrid, string>;

const draftOf = (grid: AtlasGrid | null, image: GridImage | null): Draft => ({
  frameWidth: String(grid?.frameWidth ?? Math.min(32, image?.width ?? 32)),
  frameHeight: String(grid?.frameHeight ?? Math.min(32, image?.height ?? 32)),
  margin: String(grid?.margin ?? 0),
  spacing: String(grid?.spacing ?? 0),
});

/** A draft's grid, or null while a field is not a whole number in range. */
function gridOf(draft: Draft): AtlasGrid | null {
  const values = fields.map(({ key, min }) => {
    const value = Number(draft[key]);
    return draft[key].trim() !== '' && Number.isInteger(value) && value >= min && value <= 4096
      ? value
      : null;
  });
  if (values.some((value) => value === null)) return null;
  const [frameWidth, frameHeight, margin, spacing] = values as number[];
  return { frameWidth: frameWidth!, frameHeight: frameHeight!, margin: margin!, spacing: spacing! };
}

/**
 * "Declare grid": a uniform grid on an image, for games that slice a sheet in code: frame width and
 * height, the margin around the frames and the spacing between them, with a live count of the whole frames it
 * cuts (the contract's rule, as the server counts them). Used by the admin's game files screen and the
 * artist's workbench.
 */
export function GridDialog({ image, current, onClose, onDeclared }: GridDialogProps) {
  return (
    <Modal show={image !== null} onHide={onClose} centered aria-labelledby="grid-dialog-title">
      {image && (
        <GridForm
          key={`${image.gameId}-${image.fileId}`}
          image={image}
          current={current}
          onClose={onClose}
          onDeclared={onDeclared}
        />
      )}
    </Modal>
  );
}

function GridForm({ image, current, onClose, onDeclared }: GridDialogProps & { image: GridImage }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(current, image));
  const declare = useDeclareGrid();
  const grid = gridOf(draft);
  const count = grid ? gridFrameCount(image.width, image.height, grid) : 0;
  const problem = grid
    ? gridProblem(image.width, image.height, grid)
    : 'Each value is a whole number: sizes from 1, margin and spacing from 0, at most 4096.';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!grid || problem) return;
    declare.mutate(
      { gameId: image.gameId, fileId: image.fileId, grid },
      {
        onSuccess: (atlas) => {
          notifySuccess(atlasTexts.gridDeclared(image.path, atlas.frames.length));
          onDeclared?.(atlas);
          onClose();
        },
      },
    );
  };

  return (
    <Form noValidate onSubmit={submit}>
      <Modal.Header closeButton>
        <Modal.Title id="grid-dialog-title" as="h2" className="fs-5 text-break">
          Grid of {image.path}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small text-body-secondary">
          The image is {image.width} x {image.height} px. Frames are numbered from 0, row by row from the top
          left.
        </p>
        <div className="row g-2">
          {fields.map(({ key, label, min }) => (
            <Form.Group key={key} className="col-6" controlId={`grid-${key}`}>
              <Form.Label>{label} (px)</Form.Label>
              <Form.Control
                type="number"
                min={min}
                max={4096}
                step={1}
                value={draft[key]}
                onChange={(event) => setDraft((d) => ({ ...d, [key]: event.target.value }))}
              />
            </Form.Group>
          ))}
        </div>
        <p className="mt-3 mb-0" role="status" data-testid="grid-count">
          {problem ?? atlasTexts.gridCount(count)}
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={!grid || problem !== null || declare.isPending}>
          Declare grid
        </Button>
      </Modal.Footer>
    </Form>
  );
}
