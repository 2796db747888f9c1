import { describe, expect, it } from 'vitest';
import { outsidePaths } from './outside-paths.js';

// These examples name places outside the repository on purpose: standalone.test.ts skips this file.
describe('the outside-path finder', () => {
  const root = '/repo';
  const find = (file: string, text: string) => outsidePaths(root, file, text).map((f) => f.why);

  it('finds the shared shelf beside the clone, however it is reached', () => {
    const capture = 'apps/cloud/test/golden/capture.ts';
    expect(
      find(capture, "const dir = join(here, '../../../../../shared/reference/oracle-captures');"),
    ).toEqual(
      expect.arrayContaining([
        'a shared/ folder beside the repository',
        "the team's reference shelf, not in the repository",
      ]),
    );
    expect(find('.ci/run', 'ls "$ROOT/../shared/oracle"')).toContain(
      'a shared/ folder beside the repository',
    );
    expect(find(capture, "for (const dir of ancestors) tryDir(join(dir, 'shared', 'oracle'));")).toEqual([
      "the team's reference shelf, not in the repository",
    ]);
    expect(find('docs/x.md', 'See shared/reference/house-style.md.')).toEqual([
      "the team's reference shelf, not in the repository",
    ]);
  });

  it('finds relative paths that climb above the root, and leaves those inside alone', () => {
    expect(find('scripts/a.mjs', "resolve(here, '../..')")).toHaveLength(1);
    expect(find('README.md', 'cd .. && ls')).toHaveLength(1);
    expect(find('apps/bff/src/config.ts', "resolve(here, '../../..')")).toEqual([]);
    expect(find('apps/bff/src/x.ts', "import { a } from '../../platform/a.js';")).toEqual([]);
    expect(find('docs/a.md', 'see [the README](../README.md)')).toEqual([]);
    // Ellipses, URL dot segments and computed bases cannot be resolved from the text: left alone.
    expect(find('README.md', 'and so on...')).toEqual([]);
    expect(find('README.md', 'GET /volume/v3/../../etc')).toEqual([]);
    expect(find('README.md', 'cd "$(dirname "$0")/.."')).toEqual([]);
  });

  it("finds absolute paths on someone's machine", () => {
    expect(find('scripts/x.mjs', "readFileSync('/work/shared/DESIGN.md')")).toContain(
      "an absolute path on someone's machine",
    );
    expect(find('docs/x.md', 'clone to /home/alice/src')).toHaveLength(1);
    expect(find('scripts/x.mjs', "spawn('/usr/bin/chromium')")).toEqual([]);
  });
});
