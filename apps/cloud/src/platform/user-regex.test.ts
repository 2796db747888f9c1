import { describe, expect, it } from 'vitest';
import { isUserRegex, likeSearch, userRegex } from './user-regex.js';

const search = (pattern: string, value: string, ignoreCase = false) =>
  userRegex(pattern, { ignoreCase })?.test(value);

describe('userRegex', () => {
  it('searches like re.search: anywhere in the value, anchors when asked', () => {
    expect(search('et', 'beta')).toBe(true);
    expect(search('^gam', 'gamma-1')).toBe(true);
    expect(search('^gam', 'a-gamma')).toBe(false);
    expect(search('-2$', 'gamma-2')).toBe(true);
    expect(search('ABC', 'xabcx')).toBe(false);
    expect(search('ABC', 'xabcx', true)).toBe(true);
  });

  it('runs a nested quantifier over a value that does not match in linear time', () => {
    const value = `${'a'.repeat(5000)}!`;
    const started = performance.now();
    expect(search('(a+)+$', value)).toBe(false);
    expect(search('(a|aa)+$', value)).toBe(false);
    expect(search('(.*a){20}$', value)).toBe(false);
    // A backtracking engine needs longer than the universe has for these; the bound is loose so that
    // a loaded CI machine (a second here, not minutes) does not fail the test.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("reads Python's spellings RE2 writes otherwise", () => {
    expect(search('x\\Z', 'ax')).toBe(true);
    expect(search('x\\Z', 'xa')).toBe(false);
    expect(search('\\u00e9', 'café')).toBe(true);
    expect(search('\\U0001F600', 'smile 😀')).toBe(true);
    expect(search('\\x41', 'A')).toBe(true);
    expect(search('(?P<word>ab)c', 'abc')).toBe(true);
    expect(search('a\\.b', 'a.b')).toBe(true);
    expect(search('a\\.b', 'axb')).toBe(false);
  });

  it('refuses what Python refuses, and what RE2 cannot run in linear time', () => {
    for (const bad of [
      '(',
      'a)',
      '[a',
      '*a',
      'a{2,1}',
      'a\\',
      '\\p{L}',
      '\\Qa\\E',
      'a\\z',
      '\\x4',
      '\\u12',
    ]) {
      expect(isUserRegex(bad), bad).toBe(false);
    }
    // Python compiles these, RE2 does not: the callers answer as for an invalid pattern.
    for (const unsupported of ['(a)\\1', '(?=a)', '(?!a)', '(?<=a)b', '(?P<x>a)(?P=x)']) {
      expect(isUserRegex(unsupported), unsupported).toBe(false);
    }
    expect(isUserRegex('')).toBe(true);
  });
});

describe('likeSearch', () => {
  it("is SQL LIKE '%pattern%' with a case-insensitive collation", () => {
    expect(likeSearch('compute').test('Compute-1')).toBe(true);
    expect(likeSearch('c%1').test('compute-1')).toBe(true);
    expect(likeSearch('comp_te').test('compute-1')).toBe(true);
    expect(likeSearch('comp_te').test('compte-1')).toBe(false);
    expect(likeSearch('a.b(').test('xa.b(y')).toBe(true);
    expect(likeSearch('a.b').test('axb')).toBe(false);
  });

  it('stays linear however many wildcards the pattern has', () => {
    const started = performance.now();
    expect(likeSearch(`${'%a'.repeat(2000)}%b`).test('a'.repeat(255))).toBe(false);
    // Backtracking takes minutes here; the loose bound only keeps a loaded machine from failing it.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
