import type { ServerExtras } from '../service/servers.service.js';
import type { ServerRow } from '../store/servers.store.js';
import { type ServerViewContext, serverDetailView } from './server.view.js';

/**
 * The rebuild answer (`servers.py` `_action_rebuild`): the server as PUT answers it (the basic
 * attributes before 2.75, the full show from 2.75), the admin password (Nova's
 * `enable_instance_password` is on), from 2.54 the key name and from 2.57 the user data (captures
 * 852, 857, 858, 861).
 */
export function serverRebuildView(
  ctx: ServerViewContext,
  server: ServerRow,
  extras: ServerExtras,
  adminPass: string,
): { server: Record<string, unknown> } {
  const view = serverDetailView(ctx, server, extras, { forList: false, reduced: true });
  // Nova's rebuild builds the show view with show_user_data off: admins get `user_data` instead.
  delete view['OS-EXT-SRV-ATTR:user_data'];
  // 2.54 made key_name rebuildable, so the answer shows it even where the view is reduced.
  if (ctx.version.atLeast('2.54')) view.key_name = server.key_name;
  view.adminPass = adminPass;
  if (ctx.version.atLeast('2.57')) view.user_data = server.user_data ?? null;
  return { server: view };
}
