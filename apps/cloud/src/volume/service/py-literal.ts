/**
 * Python's ast.literal_eval for the filter values Cinder evaluates (check_volume_filters):
 * numbers, quoted strings, True/False/None, and dicts/lists/tuples of those. Returns
 * `undefined` when the text is not a literal (Cinder then keeps the raw string).
 */
export type PyValue = string | number | boolean | null | PyValue[] | { [k: string]: PyValue };

export function literalEval(text: string): PyValue | undefined {
  const p = new Parser(text.trim());
  try {
    const v = p.value();
    p.ws();
    return p.done() ? v : undefined;
  } catch {
    return undefined;
  }
}

class Parser {
  i = 0;
  constructor(readonly s: string) {}

  done(): boolean {
    return this.i >= this.s.length;
  }

  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i] as string)) this.i++;
  }

  fail(): never {
    throw new Error('not a literal');
  }

  value(): PyValue {
    this.ws();
    const c = this.s[this.i];
    if (c === '{') return this.dict();
    if (c === '[' || c === '(') return this.seq(c === '[' ? ']' : ')');
    if (c === "'" || c === '"') return this.str(c);
    const m = /^(True|False|None|[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?))/.exec(this.s.slice(this.i));
    if (!m) return this.fail();
    const tok = m[0];
    this.i += tok.length;
    if (tok === 'True') return true;
    if (tok === 'False') return false;
    if (tok === 'None') return null;
    return Number(tok);
  }

  str(q: string): string {
    this.i++;
    let out = '';
    while (this.i < this.s.length && this.s[this.i] !== q) {
      const c = this.s[this.i] as string;
      if (c === '\\') {
        const n = this.s[this.i + 1];
        out += n === 'n' ? '\n' : n === 't' ? '\t' : (n ?? '');
        this.i += 2;
      } else {
        out += c;
        this.i++;
      }
    }
    if (this.s[this.i] !== q) this.fail();
    this.i++;
    return out;
  }

  seq(close: string): PyValue[] {
    this.i++;
    const out: PyValue[] = [];
    this.ws();
    while (this.s[this.i] !== close) {
      out.push(this.value());
      this.ws();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== close) this.fail();
      this.ws();
    }
    this.i++;
    return out;
  }

  dict(): { [k: string]: PyValue } {
    this.i++;
    const out: { [k: string]: PyValue } = {};
    this.ws();
    while (this.s[this.i] !== '}') {
      const k = this.value();
      this.ws();
      if (this.s[this.i] !== ':') this.fail();
      this.i++;
      out[String(k)] = this.value();
      this.ws();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== '}') this.fail();
      this.ws();
    }
    this.i++;
    return out;
  }
}
