import { emptyTexts } from '@reskin/contract';
import { DataTable } from '../../../components/lists/data-table';
import { useHelperFiles, type HelperFile } from '../../../api/helper-files';
import { formatSize } from '../../../lib/format-size';

/** The workbench's Helper Files tab (SPEC §2): the game's downloadable helper files. */
export function HelperFilesTab({ gameId }: { gameId: number }) {
  const helperFiles = useHelperFiles(gameId);
  return (
    <DataTable<HelperFile>
      aria-label="Helper files"
      status={helperFiles.status}
      emptyText={emptyTexts.helperFiles}
      columns={[
        {
          id: 'name',
          header: 'Name',
          cellProps: { className: 'text-break' },
          // The url carries its own download ticket: the link works without the session.
          cell: (file) => (
            <a href={file.url} target="_blank" rel="noreferrer" download={file.name}>
              {file.name}
            </a>
          ),
        },
        {
          id: 'size',
          header: 'Size',
          cellProps: { className: 'text-nowrap small text-body-secondary' },
          cell: (file) => formatSize(file.size),
        },
      ]}
      data={helperFiles.data?.files ?? []}
      getRowKey={(file) => file.id}
    />
  );
}
