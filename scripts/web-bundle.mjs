// The web app's build as Vite's manifest describes it (apps/web/dist/.vite/manifest.json): which
// scripts the login page loads first and what each chunk holds. Shared by scripts/bundle-size.mjs (the
// login page's budget, a step of `npm test`) and bench/dashboard.bench.ts (initial JavaScript per page).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const webDist = join(repoRoot, 'apps/web/dist');

/** Gzipped size at zlib's default level (6), as a web server typically sends it. */
export const gzipSize = (body) => gzipSync(body).length;

function readManifest(dist) {
  const file = join(dist, '.vite/manifest.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

/** From index.html: module scripts and modulepreload links (what Vite emits for static imports). */
function scriptsOfIndexHtml(dist) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = [];
  for (const m of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)) files.push(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) files.push(m[1]);
  return files.map((f) => f.replace(/^\//, ''));
}

/**
 * The JavaScript the login page loads before it can show anything: the entry chunk of index.html and
 * every chunk it imports statically, depth first (from the manifest; from index.html without one).
 * Throws when index.html is missing or does not reference exactly those files.
 */
export function loginPageScripts(dist = webDist) {
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error(`${join(dist, 'index.html')} is missing: run \`npm run build --workspace apps/web\``);
  }
  const manifest = readManifest(dist);
  let files;
  if (manifest) {
    const entries = Object.entries(manifest);
    const entry = entries.find(([key, c]) => c.isEntry && key.endsWith('index.html'));
    const [entryKey] = entry ?? entries.find(([, c]) => c.isEntry) ?? [];
    if (!entryKey) throw new Error('the Vite manifest has no entry');
    files = [];
    const seen = new Set();
    const visit = (key) => {
      if (seen.has(key)) return;
      seen.add(key);
      const chunk = manifest[key];
      if (!chunk) throw new Error(`the Vite manifest names ${key} but has no such chunk`);
      if (chunk.file.endsWith('.js')) files.push(chunk.file);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    visit(entryKey);
  } else {
    files = scriptsOfIndexHtml(dist);
  }
  files = [...new Set(files)];
  // Whatever the source, index.html must load exactly these (a mismatch means this code is wrong).
  const fromHtml = new Set(scriptsOfIndexHtml(dist));
  const missing = files.filter((f) => !fromHtml.has(f));
  if (missing.length > 0) throw new Error(`index.html does not reference ${missing.join(', ')}`);
  return files;
}

/** Each built file (e.g. `assets/topology-page-Ab12.js`) with the source it was built from. */
export function chunkSources(dist = webDist) {
  const manifest = readManifest(dist) ?? {};
  return new Map(Object.entries(manifest).map(([key, c]) => [c.file, c.src ?? key]));
}
