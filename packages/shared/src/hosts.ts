import { z } from 'zod';

/** A compute host as an admin sees it: where it is, whether it is up, what it can attach. */
export const hostSchema = z.object({
  name: z.string(),
  zone: z.string().nullable(),
  /** 'up' or 'down' (the service's heartbeat). */
  state: z.string(),
  /** 'enabled' or 'disabled'. */
  status: z.string(),
  disabledReason: z.string().nullable(),
  hypervisorType: z.string().nullable(),
  /** The nova-compute service version, when the cloud reports it. */
  version: z.number().nullable(),
  /** Null when the cloud does not say. */
  supportsMultiattach: z.boolean().nullable(),
  supportsAttachModes: z.boolean().nullable(),
  schedulable: z.boolean(),
});
export type Host = z.infer<typeof hostSchema>;

export const hostListSchema = z.object({
  hosts: z.array(hostSchema),
  /** 'extension': the bundled cloud's os-emulator-hosts; 'standard': os-services + os-hypervisors. */
  source: z.enum(['extension', 'standard']),
});
export type HostList = z.infer<typeof hostListSchema>;

/**
 * What every page says when it cannot show a member where servers run (Nova keeps hosts to admins):
 * one sentence everywhere, so the volume page, the topology, the launch and the Attach dialog agree.
 */
export const HOSTS_HIDDEN_NOTE = 'Compute host names are shown to administrators only.';
