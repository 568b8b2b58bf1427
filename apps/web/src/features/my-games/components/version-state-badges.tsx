import type { GameVersion } from '@reskin/contract';
import Badge from 'react-bootstrap/Badge';

/**
 * The reviewer's flags on a version, as its artist sees them: Locked (nothing of it changes) and Disabled
 * (read-only), on the versions screen and the workbench (versionChangeRefusal in the contract says why).
 */
export function VersionStateBadges({ version }: { version: Pick<GameVersion, 'isLocked' | 'isActive'> }) {
  return (
    <>
      {version.isLocked && <Badge bg="secondary">Locked</Badge>}
      {!version.isActive && <Badge bg="danger">Disabled</Badge>}
    </>
  );
}
