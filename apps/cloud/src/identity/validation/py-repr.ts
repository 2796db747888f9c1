/**
 * Python's `repr()` and `pprint.pformat(width=72)` for JSON values. Keystone's schema errors embed
 * jsonschema's text, which prints the failing schema and instance the Python way.
 */
export type PyValue = null | boolean | number | string | PyValue[] | { [k: string]: PyValue };

const isDict = (v: PyValue): v is { [k: string]: PyValue } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/** pprint sorts dict keys, both on one line and when it breaks a dict over several. */
const sortedEntries = (d: { [k: string]: PyValue }) =>
  Object.entries(d).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Python `repr`, with dict keys sorted as pprint prints them. */
export function pyRepr(v: PyValue): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return reprString(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  return `{${sortedEntries(v)
    .map(([k, x]) => `${reprString(k)}: ${pyRepr(x)}`)
    .join(', ')}}`;
}

/** `pprint.pformat(v, width=72)`: one line when it fits, else one item per line (long strings are not split). */
export function pformat(v: PyValue, width = 72): string {
  const out: string[] = [];
  format(v, 0, 0, width, out);
  return out.join('');
}

function format(v: PyValue, indent: number, allowance: number, width: number, out: string[]): void {
  const rep = pyRepr(v);
  if (rep.length <= width - indent - allowance) {
    out.push(rep);
    return;
  }
  if (isDict(v)) {
    const items = sortedEntries(v);
    if (items.length === 0) return void out.push(rep);
    out.push('{');
    const inner = indent + 1;
    items.forEach(([k, x], i) => {
      const last = i === items.length - 1;
      const key = reprString(k);
      out.push(`${key}: `);
      format(x, inner + key.length + 2, last ? allowance + 1 : 1, width, out);
      if (!last) out.push(`,\n${' '.repeat(inner)}`);
    });
    out.push('}');
    return;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return void out.push(rep);
    out.push('[');
    const inner = indent + 1;
    v.forEach((x, i) => {
      const last = i === v.length - 1;
      format(x, inner, last ? allowance + 1 : 1, width, out);
      if (!last) out.push(`,\n${' '.repeat(inner)}`);
    });
    out.push(']');
    return;
  }
  out.push(rep);
}
