import {
  fileUsageFilters,
  passesUsageFilter,
  usageLabel,
  type FileUsage,
  type FileUsageFilter,
} from '@reskin/contract';
import { useId } from 'react';
import Badge from 'react-bootstrap/Badge';
import Form from 'react-bootstrap/Form';
import { formatDateTimeFull } from './date-time';

/** How many of the files each usage filter keeps (the workbench shows them beside the filter's choices). */
export function usageCounts(
  fileIds: readonly number[],
  usage: ReadonlyMap<number, FileUsage>,
): Record<FileUsageFilter, number> {
  const counts = { all: 0, loaded: 0, atStart: 0, never: 0 };
  for (const fileId of fileIds) {
    for (const { key } of fileUsageFilters) if (passesUsageFilter(usage.get(fileId), key)) counts[key] += 1;
  }
  return counts;
}

interface UsageFilterSelectProps {
  value: FileUsageFilter;
  onChange: (value: FileUsageFilter) => void;
  /** Counts per choice, shown as "At start (3)"; left out where the list is paged on the server. */
  counts?: Record<FileUsageFilter, number>;
}

/** The usage filter of the workbench and the game files screen: All files, Loaded in play, At start, Never loaded yet. */
export function UsageFilterSelect({ value, onChange, counts }: UsageFilterSelectProps) {
  const id = useId();
  return (
    <Form.Group className="d-flex align-items-center gap-2">
      <Form.Label htmlFor={id} className="mb-0 text-nowrap">
        Usage in play
      </Form.Label>
      <Form.Select
        id={id}
        size="sm"
        value={value}
        onChange={(event) => onChange(event.target.value as FileUsageFilter)}
      >
        {fileUsageFilters.map(({ key, label }) => (
          <option key={key} value={key}>
            {counts ? `${label} (${counts[key]})` : label}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
}

/** A file's usage on its card or row: "At start · 3 loads", "Loaded in play · 1 load" or "Never loaded yet". */
export function UsageBadge({ usage }: { usage: FileUsage | undefined }) {
  const loads = usage?.loads ?? 0;
  const bg = loads === 0 ? 'secondary' : usage?.atStart ? 'success' : 'info';
  return (
    <Badge
      bg={bg}
      className="usage-badge"
      title={usage?.firstSeenAt ? `First loaded ${formatDateTimeFull(usage.firstSeenAt)}` : undefined}
    >
      {usageLabel(usage)}
    </Badge>
  );
}
