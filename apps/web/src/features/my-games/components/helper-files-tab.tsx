import { emptyTexts } from '@reskin/contract';
import ListGroup from 'react-bootstrap/ListGroup';
import { Loading } from '../../../components/ui/loading';
import { useHelperFiles } from '../../../api/helper-files';
import { formatSize } from '../../../lib/format-size';

/** The workbench's Helper Files tab (SPEC §2): the game's downloadable helper files. */
export function HelperFilesTab({ gameId }: { gameId: number }) {
  const helperFiles = useHelperFiles(gameId);
  if (helperFiles.isLoading) return <Loading />;
  const files = helperFiles.data?.files ?? [];
  if (files.length === 0) return <p className="mb-0">{emptyTexts.helperFiles}</p>;
  return (
    <ListGroup as="ul" aria-label="Helper files">
      {files.map((file) => (
        <ListGroup.Item as="li" key={file.id} className="d-flex justify-content-between align-items-center">
          <a href={file.url} target="_blank" rel="noreferrer" download={file.name}>
            {file.name}
          </a>
          <span className="small text-body-secondary">{formatSize(file.size)}</span>
        </ListGroup.Item>
      ))}
    </ListGroup>
  );
}
