import { describe, expect, it } from 'vitest';
import { pyRepr, pyStr } from '../../platform/validation/py-repr.js';
import { firstError, type Schema, types } from './validation.js';

describe('pyRepr / pyStr', () => {
  it('prints JSON values as Python does', () => {
    expect(pyRepr({ a: [1, 'x', null, true, false], "it's": 'say "hi"' })).toBe(
      `{'a': [1, 'x', None, True, False], "it's": 'say "hi"'}`,
    );
    expect(pyRepr(1.5)).toBe('1.5');
    expect(pyRepr(1e20)).toBe('100000000000000000000');
    expect(pyRepr(1.5e-20)).toBe('1.5e-20');
    expect(pyRepr(1e-7)).toBe('1e-07');
    expect(pyRepr('a\\b\n')).toBe("'a\\\\b\\n'");
    expect(pyStr('plain')).toBe('plain');
    expect(pyStr(null)).toBe('None');
  });
});

describe('firstError', () => {
  const schema: Schema = {
    type: 'object',
    properties: { v: { type: 'object', properties: { size: types.volumeSize }, required: ['size'] } },
    required: ['v'],
    additionalProperties: false,
  };

  it('words errors as Cinder does, with the last path element as the field', () => {
    expect(firstError(schema, { v: { size: 'x' } })?.message).toBe(
      "Invalid input for field/attribute size. Value: x. 'x' does not match '^[0-9]+$'",
    );
    expect(firstError(schema, { v: {} })?.message).toBe(
      "Invalid input for field/attribute v. Value: {}. 'size' is a required property",
    );
    expect(firstError(schema, {})?.message).toBe("'v' is a required property");
    expect(firstError(schema, { v: { size: 1 }, w: 1, z: 2 })?.message).toBe(
      "Additional properties are not allowed ('w', 'z' were unexpected)",
    );
    expect(firstError(schema, { v: { size: '2147483648' } })?.message).toBe(
      'Invalid input for field/attribute size. Value: 2147483648. 2147483648 is greater than the maximum of 2147483647',
    );
    expect(firstError(schema, { v: { size: 3 } })).toBeNull();
  });

  it('checks keywords in schema order', () => {
    expect(firstError(types.name, '')?.message).toBe("'' is too short");
    expect(firstError(types.name, '  ')?.message).toBe(
      "An invalid 'name' value was provided. The 'name' can not be empty.",
    );
  });
});
