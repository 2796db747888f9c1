import { describe, expect, it } from 'vitest';
import { type FormatCheck, firstSchemaError, type JsonSchema } from './json-schema.js';

const messageOf = (schema: JsonSchema, value: unknown, options = {}) =>
  firstSchemaError(schema, value, options)?.message ?? null;

// Messages, paths and keyword order were checked against python-jsonschema's Draft4Validator.
describe('keyword order', () => {
  it('judges keywords in the order the schema literal lists them', () => {
    expect(messageOf({ type: 'string', maxLength: 2, pattern: '^a' }, 'bbb')).toBe("'bbb' is too long");
    expect(messageOf({ type: 'string', pattern: '^a', maxLength: 2 }, 'bbb')).toBe(
      "'bbb' does not match '^a'",
    );
    expect(messageOf({ pattern: '^a', type: 'string' }, 5)).toBe("5 is not of type 'string'");
  });

  it('walks properties in schema order, not in the body order', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
    };
    expect(firstSchemaError(schema, { b: 1, a: 1 })?.path).toEqual(['a']);
  });

  it('puts required before or after the properties as listed', () => {
    const props = { a: { type: 'string' } } as const;
    expect(messageOf({ type: 'object', required: ['z'], properties: props }, { a: 1 })).toBe(
      "'z' is a required property",
    );
    expect(messageOf({ type: 'object', properties: props, required: ['z'] }, { a: 1 })).toBe(
      "1 is not of type 'string'",
    );
  });
});

describe('the first error', () => {
  it('carries the path, value, keyword, schema path and subschema', () => {
    const item: JsonSchema = { type: 'string' };
    const schema: JsonSchema = { type: 'object', properties: { list: { type: 'array', items: item } } };
    expect(firstSchemaError(schema, { list: ['x', 1] })).toEqual({
      message: "1 is not of type 'string'",
      keyword: 'type',
      path: ['list', 1],
      value: 1,
      schemaPath: ['properties', 'list', 'items', 'type'],
      schema: item,
    });
    expect(firstSchemaError(schema, { list: ['x'] })).toBeNull();
  });

  it('lists every accepted type', () => {
    expect(messageOf({ type: ['string', 'null'] }, 1)).toBe("1 is not of type 'string', 'null'");
    expect(messageOf({ type: 'integer' }, 1.5)).toBe("1.5 is not of type 'integer'");
    expect(messageOf({ type: 'number' }, true)).toBe("True is not of type 'number'");
  });

  it('counts string lengths in code points, as len() does', () => {
    expect(messageOf({ maxLength: 2 }, '😀😀')).toBeNull();
    expect(messageOf({ minLength: 1 }, '')).toBe("'' is too short");
  });
});

describe('objects', () => {
  it('names unexpected keys in body order, or sorted when asked', () => {
    const schema: JsonSchema = { type: 'object', properties: { a: {} }, additionalProperties: false };
    expect(messageOf(schema, { a: 1, z: 1, b: 2 })).toBe(
      "Additional properties are not allowed ('z', 'b' were unexpected)",
    );
    expect(messageOf(schema, { a: 1, z: 1, b: 2 }, { sortUnexpected: true })).toBe(
      "Additional properties are not allowed ('b', 'z' were unexpected)",
    );
    expect(messageOf(schema, { a: 1, constructor: 1 })).toBe(
      "Additional properties are not allowed ('constructor' was unexpected)",
    );
  });

  it('words unexpected keys against patternProperties, sorted', () => {
    const schema: JsonSchema = {
      type: 'object',
      patternProperties: { '^x': { type: 'string' } },
      additionalProperties: false,
    };
    expect(messageOf(schema, { z: 1, a: 2 })).toBe("'a', 'z' do not match any of the regexes: '^x'");
    expect(firstSchemaError(schema, { xa: 1 })?.path).toEqual(['xa']);
  });

  it('counts properties', () => {
    expect(messageOf({ minProperties: 1 }, {})).toBe('{} does not have enough properties');
    expect(messageOf({ maxProperties: 1 }, { a: 1, b: 2 })).toBe("{'a': 1, 'b': 2} has too many properties");
  });
});

describe('values', () => {
  it('compares enums with Python ==, except that True is not 1', () => {
    expect(messageOf({ enum: [1] }, true)).toBe('True is not one of [1]');
    expect(messageOf({ enum: [true, 'x'] }, 1)).toBe("1 is not one of [True, 'x']");
    expect(messageOf({ enum: [{ a: 1, b: 2 }] }, { b: 2, a: 1 })).toBeNull();
    expect(messageOf({ enum: ['on', null] }, null)).toBeNull();
  });

  it('finds duplicate items', () => {
    expect(messageOf({ uniqueItems: true }, [1, true])).toBeNull();
    expect(
      messageOf({ uniqueItems: true }, [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ]),
    ).toBe("[{'a': 1, 'b': 2}, {'b': 2, 'a': 1}] has non-unique elements");
    expect(messageOf({ maxItems: 1 }, ['a', 'b'])).toBe("['a', 'b'] is too long");
  });

  it("reads numeric strings for minimum/maximum when asked (Nova's and Cinder's _number_from_str)", () => {
    const schema: JsonSchema = { type: ['integer', 'string'], minimum: 1, maximum: 10 };
    expect(messageOf(schema, '0')).toBeNull();
    expect(messageOf(schema, '0', { numericStrings: true })).toBe('0 is less than the minimum of 1');
    expect(messageOf(schema, ' 11 ', { numericStrings: true })).toBe('11 is greater than the maximum of 10');
    expect(messageOf(schema, 'abc', { numericStrings: true })).toBeNull();
  });

  it('supports draft 4 exclusive bounds', () => {
    expect(messageOf({ minimum: 0, exclusiveMinimum: true }, 0)).toBe(
      '0 is less than or equal to the minimum of 0',
    );
    expect(messageOf({ maximum: 1.5, exclusiveMaximum: true }, 1.5)).toBe(
      '1.5 is greater than or equal to the maximum of 1.5',
    );
  });
});

describe('formats', () => {
  const formats: Record<string, FormatCheck> = {
    even: (v) => (typeof v === 'number' && v % 2 === 1 ? 'invalid' : 'valid'),
    loud: (v) => (v === 'quiet' ? { raise: 'Speak up.' } : 'valid'),
  };

  it("gives jsonschema's wording, or the checker's own exception", () => {
    expect(messageOf({ format: 'even' }, 3, { formats })).toBe("3 is not a 'even'");
    const raised = firstSchemaError({ format: 'loud' }, 'quiet', { formats });
    expect(raised).toMatchObject({ message: 'Speak up.', raised: 'Speak up.', keyword: 'format' });
  });

  it('ignores formats nobody registered, as jsonschema does', () => {
    expect(messageOf({ format: 'even' }, 3)).toBeNull();
  });
});

describe('combinators', () => {
  it('anyOf needs one match', () => {
    const schema: JsonSchema = { anyOf: [{ required: ['a'] }, { required: ['b'] }] };
    expect(messageOf(schema, { c: 1 })).toBe("{'c': 1} is not valid under any of the given schemas");
    expect(messageOf(schema, { a: 1, b: 1 })).toBeNull();
  });

  it('oneOf needs exactly one', () => {
    const schema: JsonSchema = { oneOf: [{ type: 'string' }, { type: 'null' }] };
    expect(messageOf(schema, 1)).toBe('1 is not valid under any of the given schemas');
    expect(messageOf(schema, null)).toBeNull();
    expect(messageOf({ oneOf: [{ type: 'string' }, { maxLength: 3 }] }, 'ab')).toBe(
      "'ab' is valid under each of [{'type': 'string'}, {'maxLength': 3}]",
    );
  });
});
