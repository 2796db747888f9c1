// Types for start-plan.mjs, which plain `node` runs (scripts/start.mjs).
type Env = Record<string, string | undefined>;
export declare function childEnvironment(env: Env, opts: { tty: boolean }): Env;
export declare function bannerLine(opts: {
  dashboardUrl: string;
  bundledCloud: boolean;
  authUrl: string;
  demoPassword: string;
  adminPassword: string;
}): string;
export interface StartPlan {
  identityUrl: string;
  dashboardUrl: string;
  healthUrl: string;
  webDist: string;
  customWebDist: boolean;
  listens: Listen[];
  buildEnv: Env;
  cloudEnv: Env;
  bffEnv: Env;
  banner: string;
}
export interface Listen {
  what: string;
  host: string;
  port: number;
  variable: 'CLOUD_PORT' | 'PORT';
}
export declare function portTakenMessage(taken: Listen[], listens: Listen[]): string;
export declare function startPlan(env: Env, opts: { root: string; tty: boolean }): StartPlan;
