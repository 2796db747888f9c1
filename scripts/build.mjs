#!/usr/bin/env node
// `npm run build`: everything production runs, so that it needs no dev dependency (tsx, vite...):
//   apps/web/dist/           the dashboard (vite build), served by the BFF
//   apps/cloud/dist/main.js  the bundled cloud, one ESM file
//   apps/bff/dist/main.js    the BFF, one ESM file
// The two server bundles hold our TypeScript and the workspace packages (@sv/shared); every npm package
// stays an import, resolved from node_modules at run time, so it must be one of that app's
// `dependencies` (what `npm ci --omit=dev` installs). The build fails when one is not.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The server apps and their entry points. */
export const SERVER_APPS = ['cloud', 'bff'];

/** Where `npm run build` writes an app's bundle. */
export const bundlePath = (app) => join(repoRoot, 'apps', app, 'dist', 'main.js');

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`; builtins → null. */
export function packageOf(specifier) {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0])) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The npm packages a bundle imports that are not in its app's `dependencies` (empty when the bundle
 * runs on a production install).
 */
export function undeclaredImports(externalImports, dependencies) {
  const declared = new Set(Object.keys(dependencies ?? {}));
  const packages = new Set(externalImports.map(packageOf).filter((p) => p !== null));
  return [...packages].filter((p) => !declared.has(p)).sort();
}

/**
 * Bundles one server app into `outfile` and returns the npm packages it imports. Throws when one of
 * them is not in the app's `dependencies`.
 */
export async function bundleServer(app, outfile = bundlePath(app)) {
  const appDir = join(repoRoot, 'apps', app);
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: [join(appDir, 'src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    // Bare specifiers stay imports, except our workspace packages, which are TypeScript sources.
    plugins: [
      {
        name: 'npm-packages-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@sv/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  const key = relative(repoRoot, outfile).split('\\').join('/');
  const output = result.metafile.outputs[key];
  if (!output) throw new Error(`esbuild wrote no ${key}`);
  const imports = output.imports.filter((i) => i.external).map((i) => i.path);
  const pkg = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));
  const missing = undeclaredImports(imports, pkg.dependencies);
  if (missing.length > 0) {
    throw new Error(
      `apps/${app} imports ${missing.join(', ')}, not in apps/${app}/package.json "dependencies": ` +
        'a production install (npm ci --omit=dev) would not have it',
    );
  }
  return [...new Set(imports.map(packageOf).filter((p) => p !== null))].sort();
}

async function main() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  process.stdout.write('building apps/web (vite build)\n');
  const web = spawnSync(npm, ['run', 'build', '--workspace', 'apps/web'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (web.status !== 0) {
    process.stderr.write(`build: the web app did not build (exit ${web.status})\n`);
    process.exit(1);
  }
  for (const app of SERVER_APPS) {
    const started = performance.now();
    const packages = await bundleServer(app);
    const out = bundlePath(app);
    const kb = (statSync(out).size / 1000).toFixed(0);
    const ms = (performance.now() - started).toFixed(0);
    process.stdout.write(
      `built ${relative(repoRoot, out)} (${kb} kB, ${ms} ms); imports ${packages.join(', ')}\n`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err) => {
    process.stderr.write(`build: ${err.message}\n`);
    process.exit(1);
  });
}
