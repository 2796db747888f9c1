import { describe, expect, it } from 'vitest';
import { pformat, pyRepr, pyStr } from './py-repr.js';

// Expected texts are what CPython 3 prints for the same values.
describe('pyRepr', () => {
  it('prints None, True and False', () => {
    expect(pyRepr(null)).toBe('None');
    expect(pyRepr(undefined)).toBe('None');
    expect(pyRepr(true)).toBe('True');
    expect(pyRepr(false)).toBe('False');
  });

  it('prints nested dicts and lists in the order given', () => {
    expect(pyRepr({ a: [1, 'x', null, true, false], "it's": 'say "hi"' })).toBe(
      `{'a': [1, 'x', None, True, False], "it's": 'say "hi"'}`,
    );
    expect(pyRepr({ b: 1, a: { d: [], c: {} } })).toBe("{'b': 1, 'a': {'d': [], 'c': {}}}");
    expect(pyRepr([[1, [2]], { k: [null] }])).toBe("[[1, [2]], {'k': [None]}]");
  });

  it('quotes strings as Python does', () => {
    expect(pyRepr('plain')).toBe("'plain'");
    expect(pyRepr("it's")).toBe(`"it's"`);
    expect(pyRepr('say "hi"')).toBe(`'say "hi"'`);
    // Both quotes: single quotes, the inner one escaped.
    expect(pyRepr(`b'o"th`)).toBe(`'b\\'o"th'`);
  });

  it('escapes backslashes and control characters, keeps other unicode', () => {
    expect(pyRepr('a\\b\n')).toBe("'a\\\\b\\n'");
    expect(pyRepr('\x85\x7f\x01\r\t')).toBe("'\\x85\\x7f\\x01\\r\\t'");
    expect(pyRepr('é日本😀')).toBe("'é日本😀'");
  });

  it('prints numbers as Python prints ints and floats', () => {
    expect(pyRepr(0)).toBe('0');
    expect(pyRepr(-5)).toBe('-5');
    expect(pyRepr(1.5)).toBe('1.5');
    expect(pyRepr(-0.5)).toBe('-0.5');
    expect(pyRepr(123456.789)).toBe('123456.789');
    expect(pyRepr(0.00001)).toBe('1e-05');
    expect(pyRepr(1e-7)).toBe('1e-07');
    expect(pyRepr(1.5e-20)).toBe('1.5e-20');
    expect(pyRepr(1e20)).toBe('100000000000000000000');
    expect(pyRepr(1e21)).toBe('1e+21');
    expect(pyRepr(3.40282e38)).toBe('3.40282e+38');
    // JSON.parse('1.0') is 1: a float sent as 1.0 prints as the int 1 (Python: 1.0).
    expect(pyRepr(JSON.parse('1.0'))).toBe('1');
  });
});

describe('pyStr', () => {
  it('leaves strings bare and prints the rest as repr', () => {
    expect(pyStr("it's")).toBe("it's");
    expect(pyStr(null)).toBe('None');
    expect(pyStr(true)).toBe('True');
    expect(pyStr({ a: 'b' })).toBe("{'a': 'b'}");
  });
});

describe('pformat', () => {
  it('sorts dict keys and keeps short values on one line', () => {
    expect(pformat({ b: 1, a: 2 })).toBe("{'a': 2, 'b': 1}");
    expect(pformat(['x'.repeat(50), { b: 1, a: 2 }])).toBe(`['${'x'.repeat(50)}', {'a': 2, 'b': 1}]`);
  });

  it('breaks what does not fit in 72 columns, one item per line', () => {
    const v = {
      zeta: [1, 2, { b: 'x'.repeat(30), a: null }],
      alpha: { nested: ['a'.repeat(40), true, 1.5] },
      m: 'short',
    };
    expect(pformat(v)).toBe(
      [
        `{'alpha': {'nested': ['${'a'.repeat(40)}',`,
        '                      True,',
        '                      1.5]},',
        " 'm': 'short',",
        ` 'zeta': [1, 2, {'a': None, 'b': '${'x'.repeat(30)}'}]}`,
      ].join('\n'),
    );
  });
});
