import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ZodObject } from 'zod';
import { envSchema as bffEnvSchema } from '../../apps/bff/src/config.js';
import { envSchema as cloudEnvSchema } from '../../apps/cloud/src/config.js';
import { repoRoot } from './repo-root.js';

/**
 * README's Configuration table lists every environment variable the bundled cloud, the BFF and
 * `npm start` read, who reads it, and its default. The code's side: the two config schemas, plus any
 * `env.NAME` read elsewhere in the apps' sources and in the start script.
 */

type Reader = 'cloud' | 'BFF' | 'start';
const READERS: Reader[] = ['cloud', 'BFF', 'start'];

/** `env.NAME`, `process.env.NAME`, `env['NAME']` in a source text. */
function envReads(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)\b|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g)) {
    names.add((m[1] ?? m[2]) as string);
  }
  return [...names];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mts|mjs|js)$/.test(f) && !/\.test\.|(^|[\\/])(testing|__tests__)[\\/]/.test(f))
    .map((f) => join(dir, f));
}

const readsIn = (files: string[]) => files.flatMap((f) => envReads(readFileSync(join(repoRoot, f), 'utf8')));

/** What each variable's reader takes when it is unset, as README should show it. */
function schemaDefaults(schema: ZodObject): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const [name, field] of Object.entries(schema.shape)) {
    const parsed = (field as { safeParse(v: unknown): { success: boolean; data?: unknown } }).safeParse(
      undefined,
    );
    const value = parsed.success ? parsed.data : undefined;
    // A path under the repository is shown relative to it.
    out.set(
      name,
      value === undefined
        ? null
        : String(value).startsWith(repoRoot)
          ? relative(repoRoot, String(value))
          : String(value),
    );
  }
  return out;
}

function codeReaders(): Map<string, Set<Reader>> {
  const readers = new Map<string, Set<Reader>>();
  const add = (reader: Reader, names: Iterable<string>) => {
    for (const n of names) readers.set(n, (readers.get(n) ?? new Set()).add(reader));
  };
  add('cloud', Object.keys(cloudEnvSchema.shape));
  add('cloud', readsIn(sourceFiles('apps/cloud/src')));
  add('BFF', Object.keys(bffEnvSchema.shape));
  add('BFF', readsIn(sourceFiles('apps/bff/src')));
  add('start', readsIn(['scripts/start.mjs', 'scripts/start-plan.mjs']));
  return readers;
}

interface Row {
  name: string;
  readers: Set<Reader>;
  defaultText: string;
  meaning: string;
}

/** The rows of the table in README's `## Configuration` section: `| \`NAME\` | readers | default | meaning |`. */
function readmeRows(readme: string): Row[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Configuration'));
  if (!section) throw new Error('README.md has no "## Configuration" section');
  const rows: Row[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const name = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[1] ?? '')?.[1];
    if (!name) continue;
    rows.push({
      name,
      readers: new Set(
        (cells[2] ?? '')
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean) as Reader[],
      ),
      defaultText: (cells[3] ?? '').replace(/`/g, ''),
      meaning: cells.slice(4, -1).join('|').trim(),
    });
  }
  return rows;
}

const list = (s: Iterable<string>) => [...s].sort().join(', ') || 'nobody';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

describe("README's Configuration table", () => {
  const rows = readmeRows(readme);
  const code = codeReaders();

  it('lists every variable the code reads, with who reads it, and none that nobody reads', () => {
    const byName = new Map(rows.map((r) => [r.name, r]));
    const problems: string[] = [];
    for (const [name, readers] of code) {
      const row = byName.get(name);
      if (!row) problems.push(`${name} is read by ${list(readers)} but README does not list it`);
      else if (list(row.readers) !== list(readers))
        problems.push(`${name}: README says it is read by ${list(row.readers)}; the code: ${list(readers)}`);
    }
    for (const row of rows) {
      if (!code.has(row.name)) problems.push(`${row.name} is in README, but nothing reads it`);
    }
    expect(problems).toEqual([]);
  });

  it('names each variable once, with known readers, a default and a meaning', () => {
    const names = rows.map((r) => r.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    for (const row of rows) {
      expect(
        [...row.readers].filter((r) => !READERS.includes(r)),
        row.name,
      ).toEqual([]);
      expect(row.defaultText, `${row.name}: default`).not.toBe('');
      expect(row.meaning.length, `${row.name}: meaning`).toBeGreaterThan(10);
    }
  });

  it("gives each schema's default as the code has it", () => {
    const byName = new Map(rows.map((r) => [r.name, r]));
    const problems: string[] = [];
    for (const [reader, schema] of [
      ['cloud', cloudEnvSchema],
      ['BFF', bffEnvSchema],
    ] as const) {
      for (const [name, value] of schemaDefaults(schema)) {
        const cell = byName.get(name)?.defaultText;
        if (cell === undefined) continue; // reported by the first test
        const shown = value === null ? 'unset' : value;
        if (!cell.includes(shown))
          problems.push(`${name} (${reader}): README's default "${cell}" lacks "${shown}"`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('envReads', () => {
  it('finds the ways code reads a variable, and nothing else', () => {
    expect(
      envReads("process.env.PORT; env.OS_AUTH_URL?.trim(); env['LOG_FORMAT']; e.CLOUD_PORT; environment.X"),
    ).toEqual(['PORT', 'OS_AUTH_URL', 'LOG_FORMAT']);
  });
});
