/**
 * Python's `repr()`, `str()` and `pprint.pformat()` of parsed JSON values. Nova, Cinder and
 * Keystone put these in their 400 messages (jsonschema's `%r`, WSME's `%s`, Keystone's pformat),
 * and clients and Tempest match on the text.
 */

const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A str's repr: Python picks double quotes only when the text has a ' and no ". */
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
    // C0, DEL and C1 controls are not printable, so Python writes them as \xNN.
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/**
 * JSON integers are Python ints and print as digits. JS keeps no int/float distinction, so whole
 * numbers print as JS does (digits, exponents from 1e21 as in '1e+21'), which also keeps float
 * constants such as Nova's SQL_SP_FLOAT_MAX (3.40282e+38) right.
 */
function reprNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (Number.isInteger(n)) return String(n);
  // Python's float repr has the same shortest digits as JS, but switches to an exponent below
  // 1e-4 (JS: 1e-6) and writes it with at least two digits (1e-05).
  const [mant = '', expText = '0'] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4) return `${mant}e-${String(-exp).padStart(2, '0')}`;
  return String(n);
}

/** pprint sorts dict keys (sort_dicts=True); repr() keeps the document's order. */
const entriesOf = (d: Record<string, unknown>, sorted: boolean) => {
  const entries = Object.entries(d);
  return sorted ? entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : entries;
};

function repr(v: unknown, sortDicts: boolean): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return reprNumber(v);
  if (typeof v === 'string') return reprString(v);
  if (Array.isArray(v)) return `[${v.map((x) => repr(x, sortDicts)).join(', ')}]`;
  if (isDict(v)) {
    const items = entriesOf(v, sortDicts).map(([k, x]) => `${reprString(k)}: ${repr(x, sortDicts)}`);
    return `{${items.join(', ')}}`;
  }
  return String(v);
}

/** Python `repr()` of a parsed JSON value (undefined, a missing body, prints as None). */
export const pyRepr = (v: unknown): string => repr(v, false);

/** Python `str()`: strings as they are, everything else as repr(). */
export const pyStr = (v: unknown): string => (typeof v === 'string' ? v : pyRepr(v));

/**
 * `pprint.pformat(v, width=72)`: one line when it fits, else one item per line with dict keys
 * sorted (long strings are not split into chunks as pprint would).
 */
export function pformat(v: unknown, width = 72): string {
  const out: string[] = [];
  format(v, 0, 0, width, out);
  return out.join('');
}

function format(v: unknown, indent: number, allowance: number, width: number, out: string[]): void {
  const rep = repr(v, true);
  if (rep.length <= width - indent - allowance) {
    out.push(rep);
    return;
  }
  if (isDict(v)) {
    const items = entriesOf(v, true);
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
