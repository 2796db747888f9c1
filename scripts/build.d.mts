// Types for build.mjs, which plain `node` runs (`npm run build`).
export declare const repoRoot: string;
export declare const SERVER_APPS: readonly ['cloud', 'bff'];
export declare function bundlePath(app: string): string;
export declare function packageOf(specifier: string): string | null;
export declare function undeclaredImports(
  externalImports: string[],
  dependencies: Record<string, string> | undefined,
): string[];
export declare function bundleServer(app: string, outfile?: string): Promise<string[]>;
