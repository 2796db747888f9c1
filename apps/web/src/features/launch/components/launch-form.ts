import { zodResolver } from '@hookform/resolvers/zod';
import {
  type AttachMode,
  type Capabilities,
  isServerHold,
  type LaunchRequest,
  launchRequestSchema,
  type Volume,
} from '@sv/shared';
import { type FieldPath, get, type Resolver, set, useFormContext } from 'react-hook-form';
import type { z } from 'zod';

/** What the wizard's form holds while it is being filled in (count is NaN while its field is empty). */
export type LaunchFormValues = z.input<typeof launchRequestSchema>;

/** How the user logs in to the servers; null until chosen (the wizard says which, always). */
export type KeyChoice = 'existing' | 'import' | 'create' | 'none';

/**
 * What the shared schema cannot know: the volumes' sharing, what the cloud can do, the project's
 * instances left, and where the key pair step stands.
 */
export interface LaunchFormContext {
  volumes: Volume[];
  readOnlyAttach: Capabilities['readOnlyAttach'];
  /** Instances the quota leaves (null: unlimited or not known), with the figures for the message. */
  instances?: { used: number; limit: number } | null;
  keyChoice?: KeyChoice | null;
  /** A key pair made here whose private key the user has not yet said they saved. */
  unsavedPrivateKey?: string | null;
}

export const defaultLaunchValues: LaunchFormValues = {
  name: '',
  count: 1,
  flavorId: '',
  boot: { source: 'image', imageId: '' },
  dataVolumes: [],
  availabilityZone: undefined,
  // Set once the choices load: the project's only network, its `default` group (see launch-defaults).
  networks: undefined,
  securityGroups: undefined,
  keyName: undefined,
};

export type StepId =
  | 'details'
  | 'flavor'
  | 'boot'
  | 'data'
  | 'zone'
  | 'networks'
  | 'securityGroups'
  | 'keyPair'
  | 'review';

export interface WizardStep {
  id: StepId;
  title: string;
  /**
   * The fields this step owns: they must be valid to move on. Leaves, not `boot`: the form only
   * keeps nested errors of an object it was asked about by their own paths.
   */
  fields: FieldPath<LaunchFormValues>[];
}

export const STEPS: readonly WizardStep[] = [
  { id: 'details', title: 'Details', fields: ['name', 'count'] },
  { id: 'flavor', title: 'Flavor', fields: ['flavorId'] },
  { id: 'boot', title: 'Boot source', fields: ['boot.imageId', 'boot.volumeId', 'boot.mode'] },
  { id: 'data', title: 'Data volumes', fields: ['dataVolumes'] },
  { id: 'zone', title: 'Availability zone', fields: ['availabilityZone'] },
  { id: 'networks', title: 'Networks', fields: ['networks'] },
  { id: 'securityGroups', title: 'Security groups', fields: ['securityGroups'] },
  { id: 'keyPair', title: 'Key pair', fields: ['keyName'] },
  { id: 'review', title: 'Review', fields: [] },
];

/** The step where a field (as the BFF's plan names it, e.g. `dataVolumes.0.mode`) is edited. */
export function stepOfField(field: string): StepId {
  const head = field.split('.')[0];
  const owner = STEPS.find((s) => s.fields.some((f) => f.split('.')[0] === head));
  return owner?.id ?? 'review';
}

/** RAM in the unit people read it in. */
export const formatRam = (mb: number) => (mb >= 1024 ? `${+(mb / 1024).toFixed(1)} GB` : `${mb} MB`);

/** The count as a number, or NaN while the field holds something else. */
export function countOf(values: Pick<LaunchFormValues, 'count'>): number {
  const raw: unknown = values.count;
  return typeof raw === 'number' ? raw : Number.NaN;
}

/** More than one server will be launched (an unparsable count is not "more"). */
export const isMulti = (count: number) => Number.isFinite(count) && count > 1;

export const notSharedMessage = (name: string, count: number) =>
  `${name} is not shared (multiattach), so only one server can use it, and this launch makes ${count}. Launch 1 server, or choose a shared volume.`;

/** Statuses a shared volume may be in for one more server to take it (as the BFF checks). */
const SHARED_USABLE = new Set(['available', 'in-use', 'reserved', 'attaching']);

export const volumeLabel = (v: Pick<Volume, 'id' | 'name'>) => v.name || v.id;

/** Why this volume cannot go into this launch, or null when it can. */
export function unusableReason(v: Volume, count: number): string | null {
  if (v.shared) return SHARED_USABLE.has(v.status) ? null : `It is ${v.status}.`;
  if (v.status === 'in-use') return 'It is attached to another server and is not shared.';
  if (v.status !== 'available') return `It is ${v.status}; it must be available.`;
  if (isMulti(count)) return `Not shared: only one server can use it, and you are launching ${count}.`;
  return null;
}

/** Read-write holders a shared volume would have after this launch, if it goes on read-write. */
export function writerRisk(
  v: Volume,
  mode: AttachMode,
  count: number,
): { newWriters: number; existing: string[] } | null {
  if (!v.shared || mode !== 'rw') return null;
  const newWriters = Number.isFinite(count) && count > 0 ? count : 1;
  // Counted as the BFF counts them: live holds the compute service does not disown.
  const existing = v.attachments
    .filter((a) => isServerHold(a) && a.mode === 'rw')
    .map((a) => a.serverName ?? a.serverId);
  return newWriters + existing.length > 1 ? { newWriters, existing } : null;
}

/** Read-only whenever read-write would make a second writer (and the cloud can do it). */
export const safeDefaultMode = (v: Volume, count: number, readOnlyAvailable: boolean): AttachMode =>
  readOnlyAvailable && writerRisk(v, 'rw', count) ? 'ro' : 'rw';

/** Problems only the catalog can reveal, at the field paths the form shows them on. */
export function contextIssues(
  values: LaunchFormValues,
  ctx: LaunchFormContext | undefined,
): { path: FieldPath<LaunchFormValues>; message: string }[] {
  if (!ctx) return [];
  const issues: { path: FieldPath<LaunchFormValues>; message: string }[] = [];
  const count = countOf(values);
  const byId = new Map(ctx.volumes.map((v) => [v.id, v]));
  const roRefused = ctx.readOnlyAttach.reason ?? 'This cloud cannot attach volumes read-only.';
  const check = (volumeId: string, mode: AttachMode | undefined, at: 'boot' | `dataVolumes.${number}`) => {
    const v = byId.get(volumeId);
    if (v && !v.shared && isMulti(count)) {
      issues.push({ path: `${at}.volumeId`, message: notSharedMessage(volumeLabel(v), count) });
    }
    if (mode === 'ro' && !ctx.readOnlyAttach.available)
      issues.push({ path: `${at}.mode`, message: roRefused });
  };
  if (values.boot.source === 'volume' && values.boot.volumeId) {
    check(values.boot.volumeId, values.boot.mode, 'boot');
  }
  (values.dataVolumes ?? []).forEach((d, i) => {
    check(d.volumeId, d.mode, `dataVolumes.${i}`);
  });
  const countIssue = ctx.instances ? quotaCountIssue(count, ctx.instances) : null;
  if (countIssue) issues.push({ path: 'count', message: countIssue });
  // Only where the wizard tracks the key pair step (undefined: not asked).
  const keyIssue =
    ctx.keyChoice === undefined
      ? null
      : keyPairIssue(values.keyName, ctx.keyChoice, ctx.unsavedPrivateKey ?? null);
  if (keyIssue) issues.push({ path: 'keyName', message: keyIssue });
  return issues;
}

/** Why this many servers do not fit in the instances the project has left, or null when they do. */
export function quotaCountIssue(count: number, instances: { used: number; limit: number }): string | null {
  const left = Math.max(0, instances.limit - instances.used);
  if (!Number.isFinite(count) || count <= left) return null;
  const figures = `${instances.used} of ${instances.limit} instances used`;
  if (left === 0)
    return `This project's instance quota is used up (${figures}). Delete servers, or ask for more quota.`;
  return `This project has room for ${left} more ${left === 1 ? 'server' : 'servers'} (${figures}). Launch at most ${left}.`;
}

/** What the key pair step still needs before the wizard moves on, or null. */
export function keyPairIssue(
  keyName: string | undefined,
  choice: KeyChoice | null,
  unsavedPrivateKey: string | null,
): string | null {
  if (unsavedPrivateKey && keyName === unsavedPrivateKey)
    return 'Confirm you saved the private key: it cannot be shown again.';
  if (choice === null) return 'Choose a key pair to log in with, or choose no key pair';
  if (choice === 'none' || keyName) return null;
  if (choice === 'existing') return 'Choose a key pair, or choose no key pair';
  if (choice === 'import') return 'Import the public key first, or choose no key pair';
  return 'Create the key pair first, or choose no key pair';
}

const schemaResolver = zodResolver<LaunchFormValues, LaunchFormContext, LaunchRequest>(launchRequestSchema);

/**
 * The shared launchRequestSchema, plus the rules it cannot check on its own (a plain volume
 * with count > 1; read-only where the cloud cannot do it), reported on the same fields.
 */
export const launchResolver: Resolver<LaunchFormValues, LaunchFormContext, LaunchRequest> = async (
  values,
  context,
  options,
) => {
  const result = await schemaResolver(values, context, options);
  const extra = contextIssues(values, context);
  if (extra.length === 0) return result;
  const errors = { ...result.errors };
  for (const issue of extra) {
    // The schema's own message for a field comes first.
    if (!get(errors, issue.path)) set(errors, issue.path, { type: 'context', message: issue.message });
  }
  return { values: {}, errors };
};

/** The message of the error at a dotted path (errors of the boot union are not typed per branch). */
export function errorAt(errors: object, path: string): string | undefined {
  const e: unknown = get(errors, path);
  if (e && typeof e === 'object' && 'message' in e && typeof e.message === 'string') return e.message;
  return undefined;
}

/** The wizard's form, for the steps (they sit inside its FormProvider). */
export const useLaunchForm = () => useFormContext<LaunchFormValues, LaunchFormContext, LaunchRequest>();
