import { dirname, relative, resolve } from 'node:path';

/**
 * Finds, in one file of the repository, every name of a place outside it: a relative path that
 * climbs above the repository's root, or a place known to exist only on some machines (the team's
 * `shared/` shelf beside the clone, someone's home or work directory). A clone on a machine with
 * nothing beside it has none of those, so no test, script, config or document may rely on one.
 */

export interface OutsidePath {
  file: string;
  line: number;
  text: string;
  why: string;
}

const KNOWN_OUTSIDE: { pattern: RegExp; why: string }[] = [
  { pattern: /\.\.[\\/]+shared\b/, why: 'a shared/ folder beside the repository' },
  { pattern: /\bshared[\\/]+(reference|oracle)\b/, why: "the team's reference shelf, not in the repository" },
  {
    pattern: /['"]shared['"]\s*,\s*['"](reference|oracle)['"]/,
    why: "the team's reference shelf, not in the repository",
  },
  {
    pattern: /\boracle-captures\b/,
    why: "the reference shelf's captures (the repository's are in captures/)",
  },
  {
    pattern: /(^|[\s'"`(=:,[])\/(work|home|root|Users)\/[\w.-]/,
    why: "an absolute path on someone's machine",
  },
];

/**
 * A relative path written out: `..` not preceded by a path character (so `a/..` or a URL's `/v3/..`
 * is left alone: those cannot be resolved from the text), then `/segment`s.
 */
const RELATIVE_UP = /(?<![\w./\\~$}@-])\.\.(?!\.)(?:[\\/][\w@.+-]*)*/g;

/** `file` is relative to `root`; `text` is its content. */
export function outsidePaths(root: string, file: string, text: string): OutsidePath[] {
  const found: OutsidePath[] = [];
  const lines = text.split('\n');
  const fileDir = dirname(resolve(root, file));
  lines.forEach((content, i) => {
    const at = (why: string) => found.push({ file, line: i + 1, text: content.trim().slice(0, 160), why });
    for (const { pattern, why } of KNOWN_OUTSIDE) {
      if (pattern.test(content)) at(why);
    }
    for (const m of content.matchAll(RELATIVE_UP)) {
      const target = resolve(fileDir, m[0]);
      const fromRoot = relative(root, target);
      if (fromRoot === '..' || fromRoot.startsWith('../') || fromRoot.startsWith('..\\')) {
        at(`\`${m[0]}\` from ${relative(root, fileDir) || '.'}/ leads outside the repository`);
      }
    }
  });
  return found;
}
