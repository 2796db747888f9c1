/**
 * Nova keeps access addresses as netaddr objects and prints them with `str()`: IPv6 in compact
 * lower case, the longest run of two or more zero groups (the first on a tie) as `::`, and the
 * IPv4-mapped (`::ffff:a.b.c.d`) and IPv4-compatible (`::a.b.c.d`, above ::ffff) forms dotted.
 * `address` is already valid IPv6 (the request schema's `ipv6` format).
 */
export function compactIpv6(address: string): string {
  const groups = parseIpv6(address);
  if (!groups) return address;
  const dotted = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (groups.slice(0, 5).every((g) => g === 0)) {
    const [g5, g6, g7] = [groups[5]!, groups[6]!, groups[7]!];
    if (g5 === 0xffff) return `::ffff:${dotted(g6, g7)}`;
    if (g5 === 0 && g6 !== 0) return `::${dotted(g6, g7)}`;
  }
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestLen < 2) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/** The eight 16-bit groups of an IPv6 address (with an optional dotted IPv4 tail), or null. */
function parseIpv6(address: string): number[] | null {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const octets = last.split('.').map((o) => Number.parseInt(o, 10));
    if (octets.length !== 4 || octets.some((o) => !(o >= 0 && o <= 255))) return null;
    const hi = (octets[0]! << 8) | octets[1]!;
    const lo = (octets[2]! << 8) | octets[3]!;
    text = `${text.slice(0, lastColon + 1)}${hi.toString(16)}:${lo.toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const head = part(halves[0]!);
  const rest = halves.length === 2 ? part(halves[1]!) : [];
  if ([...head, ...rest].some((g) => Number.isNaN(g))) return null;
  const fill = 8 - head.length - rest.length;
  if (halves.length === 1 ? fill !== 0 : fill < 0) return null;
  return [...head, ...new Array<number>(fill).fill(0), ...rest];
}
