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
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSize, loginPageScripts, repoRoot as root, webDist as dist } from './web-bundle.mjs';

const BUDGET_KB = 200;

function fail(message) {
  process.stderr.write(`bundle-size: ${message}\n`);
  process.exit(1);
}

if (process.argv.includes('--build')) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['run', 'build', '--workspace', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) fail(`the web app did not build (exit ${r.status})`);
}

let files;
try {
  files = loginPageScripts(dist);
} catch (err) {
  fail(err.message);
}

const kb = (bytes) => (bytes / 1000).toFixed(2);
let rawTotal = 0;
let gzipTotal = 0;
process.stdout.write('Login page, initial JavaScript (apps/web/dist):\n');
for (const file of files) {
  const body = readFileSync(join(dist, file));
  const gz = gzipSize(body);
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
