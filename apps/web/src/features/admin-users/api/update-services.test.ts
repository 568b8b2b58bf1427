import { describe, expect, it } from 'vitest';
import { describeServicesUpdate } from './update-services';

describe('the services update toast', () => {
  it('says what the update did after the spec message', () => {
    expect(describeServicesUpdate({ regeneratedGameIds: [3], removedStoredFiles: 0 }, 'Services updated')).toBe(
      'Services updated: 1 game re-generated, 0 unused files removed.',
    );
    expect(describeServicesUpdate({ regeneratedGameIds: [1, 2], removedStoredFiles: 1 }, 'Services updated')).toBe(
      'Services updated: 2 games re-generated, 1 unused file removed.',
    );
  });
});
