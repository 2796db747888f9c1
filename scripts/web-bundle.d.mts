// Types for web-bundle.mjs, which plain `node` runs too (scripts/bundle-size.mjs).
export declare const repoRoot: string;
export declare const webDist: string;
export declare function gzipSize(body: Uint8Array): number;
export declare function loginPageScripts(dist?: string): string[];
export declare function chunkSources(dist?: string): Map<string, string>;
