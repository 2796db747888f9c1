/**
 * Guest device names as the libvirt driver hands them out on the virtio bus: the root disk is
 * always `/dev/vda`, everything else takes the next free `vdb`, `vdc`, ... `vdz`, `vdaa`, ...
 * (libvirt ignores a name the user asks for, so the API only validates it.)
 */
export const ROOT_DEVICE = '/dev/vda';
const PREFIX = '/dev/vd';

/** 0 → a, 25 → z, 26 → aa (the spreadsheet-column scheme libvirt's blockinfo uses). */
function letters(index: number): string {
  let n = index;
  let out = '';
  do {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return out;
}

/** The next device name for a disk, given the names the server already uses. */
export function nextDeviceName(used: Iterable<string>, bootIndex: number | null): string {
  const taken = new Set(used);
  if (bootIndex === 0 && !taken.has(ROOT_DEVICE)) return ROOT_DEVICE;
  // vda stays reserved for the root disk even while it is not named yet.
  for (let i = 1; ; i++) {
    const name = PREFIX + letters(i);
    if (!taken.has(name)) return name;
  }
}

/** Nova prepends `/dev/` to a block_device_mapping_v2 device_name given without it. */
export function normaliseDeviceName(name: string | null | undefined): string | null {
  if (!name) return null;
  return name.startsWith('/dev/') ? name : `/dev/${name}`;
}
