const units = ['KB', 'MB', 'GB', 'TB'] as const;
const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, useGrouping: false });

/**
 * A file's size for people, the same on every screen (a 5-byte file read "1 KB" to artists and "5 B" to
 * the admin): whole bytes below 1 KB, else KB, MB, GB or TB (1024-based, as the upload limit MAX_FILE_SIZE_MB is)
 * with at most one decimal: 5 B, 1023 B, 1 KB, 1.5 KB, 3.4 MB.
 */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes / 1024;
  let unit = 0;
  // 1023.96 KB rounds to 1024 KB: that is 1 MB.
  while (Math.round(value * 10) / 10 >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${number.format(value)} ${units[unit]}`;
}
