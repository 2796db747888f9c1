import type { ComputeDeps } from '../deps.js';
import type { AuthContext } from '../../platform/http/context.js';
import { conflict } from '../../platform/http/errors.js';
import { assertProjectWriter } from '../../platform/http/policy.js';
import { requestSchema, validateBody } from '../schemas/validation.js';
import { getServer } from './servers.service.js';

/**
 * `os-getConsoleOutput` (`console_output.py`, the fake virt driver's console): the server must
 * have a host (else 409 InstanceNotReady); `length` keeps the last lines as the compute manager's
 * `_tail_log` does (0: nothing; -1, as Nova's slice does, drops the first line).
 */

export const CONSOLE_OUTPUT_RULE = 'os_compute_api:os-console-output';

/** nova.virt.fake.FakeDriver.get_console_output. */
const FAKE_CONSOLE = 'FAKE CONSOLE OUTPUT\nANOTHER\nLAST LINE';

const schema = requestSchema<{ 'os-getConsoleOutput': { length?: number | string | null } }>({
  type: 'object',
  properties: {
    'os-getConsoleOutput': {
      type: 'object',
      properties: { length: { type: ['integer', 'string', 'null'], pattern: '^-?[0-9]+$', minimum: -1 } },
      additionalProperties: false,
    },
  },
  required: ['os-getConsoleOutput'],
  additionalProperties: false,
});

function tail(log: string, length: number): string {
  if (length === 0) return '';
  const lines = log.split('\n');
  return lines.slice(length > 0 ? Math.max(lines.length - length, 0) : -length).join('\n');
}

export async function consoleOutput(
  deps: ComputeDeps,
  auth: AuthContext,
  serverId: string,
  body: unknown,
): Promise<string> {
  const { 'os-getConsoleOutput': args } = validateBody(schema, body);
  const server = await getServer(deps, auth, serverId);
  assertProjectWriter(auth, CONSOLE_OUTPUT_RULE);
  if (!server.host) throw conflict(`Instance ${serverId} is not ready`);
  if (server.task_state === 'deleting' || server.task_state === 'migrating') {
    throw conflict(
      `Cannot 'get_console_output' instance ${serverId} while it is in task_state ${server.task_state}`,
    );
  }
  const length = args.length;
  return length === undefined || length === null ? FAKE_CONSOLE : tail(FAKE_CONSOLE, Number(length));
}
