import { RE2JS } from 're2js';

/**
 * The one place the cloud evaluates a pattern a client sent (Nova's regex query filters,
 * `hypervisor_hostname_pattern`). JavaScript's RegExp backtracks: `(a+)+$` against forty a's and a
 * `!` takes hours and freezes the event loop for every project and every service. RE2 (re2js,
 * pure JavaScript) runs in time linear in the input, so a pattern costs at most its compile plus
 * one pass over each value. RE2 has no backreferences and no lookaround: such a pattern does not
 * compile here and the caller answers as for an invalid one.
 */
export interface UserPattern {
  /** Whether the pattern matches anywhere in `value` (Python's `re.search`). */
  test(value: string): boolean;
}

/** Letters Python's `re` takes after a backslash (`\d`, `\Z`...); any other letter is "bad escape". */
const PYTHON_LETTER_ESCAPES = new Set('aAbBdDfnrsStvwWxZuU');
const HEX = /^[0-9a-fA-F]+$/;

/**
 * Rewrites Python `re` syntax into RE2's where they spell the same thing differently (`\Z`,
 * `\uXXXX`), and refuses escapes Python refuses but RE2 would take (`\p{L}`, `\Q`, `\z`), so
 * that what compiles here is what Nova's `re.compile` check lets through. Null: not a pattern.
 */
function fromPythonSyntax(pattern: string): string | null {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = pattern[i + 1];
    if (next === undefined) return null;
    i++;
    if (!/[A-Za-z]/.test(next)) {
      out += c + next;
    } else if (!PYTHON_LETTER_ESCAPES.has(next)) {
      return null;
    } else if (next === 'Z') {
      out += '\\z';
    } else if (next === 'x' || next === 'u' || next === 'U') {
      const digits = next === 'x' ? 2 : next === 'u' ? 4 : 8;
      const hex = pattern.slice(i + 1, i + 1 + digits);
      if (hex.length !== digits || !HEX.test(hex)) return null;
      out += `\\x{${hex}}`;
      i += digits;
    } else {
      out += c + next;
    }
  }
  return out;
}

function compile(re2Pattern: string, ignoreCase: boolean): UserPattern | null {
  try {
    const re = RE2JS.compile(re2Pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
    return { test: (value) => re.test(value) };
  } catch {
    return null;
  }
}

/**
 * A regular expression in Python's syntax, searched in linear time; null when it is not one
 * (or uses what RE2 cannot run in linear time: backreferences, lookaround).
 */
export function userRegex(pattern: string, opts: { ignoreCase?: boolean } = {}): UserPattern | null {
  const re2Pattern = fromPythonSyntax(pattern);
  return re2Pattern === null ? null : compile(re2Pattern, opts.ignoreCase ?? false);
}

/** Whether `userRegex` can compile `pattern`. */
export const isUserRegex = (pattern: string): boolean => userRegex(pattern) !== null;

/**
 * SQL `LIKE '%pattern%'` as MySQL runs it with a case-insensitive collation: `%` is any run of
 * characters, `_` any one, everything else itself.
 */
export function likeSearch(pattern: string): UserPattern {
  let re2Pattern = '(?s)';
  for (const c of pattern) re2Pattern += c === '%' ? '.*' : c === '_' ? '.' : RE2JS.quote(c);
  // Every piece is quoted or a wildcard, so this always compiles.
  return compile(re2Pattern, true) as UserPattern;
}
