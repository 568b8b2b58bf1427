import { describe, expect, it } from 'vitest';
import { matchBatch, sharedTopFolder } from '@reskin/contract';

/** matchBatch (packages/contract/src/batch-matching.ts, decision 0030): the plan's matching, shared by the server and the browser. */
describe('matching incoming files to game files', () => {
  const files = [
    { fileId: 1, path: 'assets/img/hero.png', width: 10 },
    { fileId: 2, path: 'assets/img/bg.jpg', width: 10 },
    { fileId: 3, path: 'assets/a/dup.png', width: 10 },
    { fileId: 4, path: 'assets/b/dup.png', width: 10 },
    { fileId: 5, path: 'assets/sfx/jump.ogg', width: null },
    { fileId: 6, path: 'assets/font.svg', width: null },
    { fileId: 7, path: 'assets/sheet.png', width: 10 },
  ];
  const frames = [
    { fileId: 7, path: 'assets/sheet.png', name: 'star.png' },
    { fileId: 7, path: 'assets/sheet.png', name: 'walk/0' },
    { fileId: 7, path: 'assets/sheet.png', name: 'run/0' },
  ];

  it('strips a top folder all incoming paths share, unless the game has a top folder of that name', () => {
    expect(sharedTopFolder(['export/a.png', 'export/b/c.png'], ['assets/a.png'])).toBe('export');
    expect(sharedTopFolder(['assets/a.png', 'assets/b.png'], ['assets/a.png'])).toBeNull();
    expect(sharedTopFolder(['export/a.png', 'b.png'], [])).toBeNull();
  });

  it('matches by path, by path with another extension of the same kind, by unique name, by frame; else ambiguous or unmatched', () => {
    const rows = matchBatch(
      [
        'assets/img/hero.png',
        'assets/img/bg.png',
        'dup.png',
        'jump.wav',
        'star.png',
        '0.png',
        'font.svg',
        'nothing.png',
        'sheet.json',
      ],
      files,
      frames,
    );
    const by = (incoming: string) => rows.find((row) => row.incoming === incoming)!;
    expect(by('assets/img/hero.png')).toMatchObject({
      status: 'matched',
      matchedBy: 'path',
      fileId: 1,
      relative: 'assets/img/hero.png',
    });
    expect(by('assets/img/bg.png')).toMatchObject({ status: 'matched', matchedBy: 'path', fileId: 2 });
    expect(by('dup.png')).toMatchObject({
      status: 'ambiguous',
      fileId: null,
      candidates: [
        { fileId: 3, path: 'assets/a/dup.png', frame: null },
        { fileId: 4, path: 'assets/b/dup.png', frame: null },
      ],
    });
    expect(by('jump.wav')).toMatchObject({ status: 'matched', matchedBy: 'name', fileId: 5, kind: 'audio' });
    expect(by('star.png')).toMatchObject({
      status: 'matched',
      matchedBy: 'frame',
      fileId: 7,
      frame: 'star.png',
    });
    expect(by('0.png')).toMatchObject({
      status: 'ambiguous',
      candidates: [{ frame: 'walk/0' }, { frame: 'run/0' }],
    });
    expect(by('font.svg')).toMatchObject({ status: 'not_replaceable', fileId: 6, kind: 'other' });
    expect(by('nothing.png')).toMatchObject({ status: 'unmatched', fileId: null });
    expect(by('sheet.json')).toMatchObject({ status: 'unmatched' });
  });

  it('a WAV never matches an image of its name, nor a PNG a sound', () => {
    const rows = matchBatch(['hero.wav', 'jump.png'], files, []);
    expect(rows.map((row) => row.status)).toEqual(['unmatched', 'unmatched']);
  });
});
