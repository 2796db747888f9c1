import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outsidePaths } from './outside-paths.js';
import { repoRoot } from './repo-root.js';

/** The finder's own examples name such places on purpose. */
const EXAMPLES = 'test/repo/outside-paths.test.ts';

/**
 * The repository stands alone: a clone with nothing beside it runs every test, script and CI step.
 * Every file git knows (tracked, or new and not ignored) is read, documents included: a document that
 * sends a reader to a path they do not have is as wrong as a script that reads one. Prose may still
 * speak of "the reference cloud" the captures were recorded from; it may not give a path to it.
 */

function repositoryFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  return out
    .toString()
    .split('\0')
    .filter((f) => f && existsSync(join(repoRoot, f)) && statSync(join(repoRoot, f)).isFile());
}

const isBinary = (body: Buffer) => body.subarray(0, 8000).includes(0);

describe('the repository names no place outside itself', () => {
  it('in any file git knows', () => {
    const files = repositoryFiles();
    // A sanity floor: the listing really is the repository (the recorded captures alone are 300).
    expect(files.length).toBeGreaterThan(300);
    const found = [];
    for (const file of files) {
      if (file === EXAMPLES) continue;
      const body = readFileSync(join(repoRoot, file));
      if (isBinary(body)) continue;
      found.push(...outsidePaths(repoRoot, file, body.toString('utf8')));
    }
    expect(found.map((f) => `${f.file}:${f.line}: ${f.why}: ${f.text}`)).toEqual([]);
  });
});
