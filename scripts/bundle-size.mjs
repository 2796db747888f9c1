#!/usr/bin/env node
// The JavaScript the login page loads before it can show anything: the entry chunk of
// apps/web/dist/index.html and every chunk it imports statically (what the browser must fetch and run
// first). Chunks loaded later (dynamic import(), workers) do not count. Prints each file's size raw
// and gzipped, and the gzipped total; exits 1 when the total is over the budget (200 kB gzipped).
//
//   node scripts/bundle-size.mjs            # after `npm run build --workspace apps/web`
//   node scripts/bundle-size.mjs --build    # builds the web app first
//
// Sizes are in kB = 1000 bytes, as Vite prints them; gzip at zlib's default level (6), as a web
// server typically sends it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 200;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'apps/web/dist');
const manifestFile = join(dist, '.vite/manifest.json');
const indexFile = join(dist, 'index.html');

function fail(message) {
  process.stderr.write(`bundle-size: ${message}\n`);
  process.exit(1);
}

if (process.argv.includes('--build')) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['run', 'build', '--workspace', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) fail(`the web app did not build (exit ${r.status})`);
}
if (!existsSync(indexFile))
  fail('apps/web/dist/index.html is missing: run `npm run build --workspace apps/web`');

/** From Vite's manifest: the HTML entry's chunk and its static imports, depth first. */
function fromManifest() {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const entry = Object.entries(manifest).find(([key, c]) => c.isEntry && key.endsWith('index.html'));
  const [entryKey] = entry ?? Object.entries(manifest).find(([, c]) => c.isEntry) ?? [];
  if (!entryKey) fail('the Vite manifest has no entry');
  const files = [];
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) fail(`the Vite manifest names ${key} but has no such chunk`);
    if (chunk.file.endsWith('.js')) files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKey);
  return files;
}

/** From index.html: module scripts and modulepreload links (what Vite emits for static imports). */
function fromIndexHtml() {
  const html = readFileSync(indexFile, 'utf8');
  const files = [];
  for (const m of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)) files.push(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) files.push(m[1]);
  return files.map((f) => f.replace(/^\//, ''));
}

const files = [...new Set(existsSync(manifestFile) ? fromManifest() : fromIndexHtml())];
// Whatever the source, index.html must load exactly these (a mismatch means this script is wrong).
const fromHtml = new Set(fromIndexHtml());
const missing = files.filter((f) => !fromHtml.has(f));
if (missing.length > 0) fail(`index.html does not reference ${missing.join(', ')}`);

const kb = (bytes) => (bytes / 1000).toFixed(2);
let rawTotal = 0;
let gzipTotal = 0;
process.stdout.write('Login page, initial JavaScript (apps/web/dist):\n');
for (const file of files) {
  const body = readFileSync(join(dist, file));
  const gz = gzipSync(body).length;
  rawTotal += body.length;
  gzipTotal += gz;
  process.stdout.write(
    `  ${file.padEnd(40)} ${kb(body.length).padStart(9)} kB   gzip ${kb(gz).padStart(8)} kB\n`,
  );
}
const over = gzipTotal / 1000 > BUDGET_KB;
process.stdout.write(
  `  ${`total (${files.length} file${files.length === 1 ? '' : 's'})`.padEnd(40)} ${kb(rawTotal).padStart(9)} kB   gzip ${kb(gzipTotal).padStart(8)} kB\n` +
    `${over ? 'OVER' : 'within'} budget: ${kb(gzipTotal)} kB gzipped ${over ? '>' : '<='} ${BUDGET_KB} kB\n`,
);
process.exit(over ? 1 : 0);
