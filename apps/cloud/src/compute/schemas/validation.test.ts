import { describe, expect, it } from 'vitest';
import {
  type JsonSchema,
  nonNegativeIntParam,
  requestSchema,
  validateBody,
  validateQuery,
} from './validation.js';

const thrown = (f: () => void) => {
  try {
    f();
    return null;
  } catch (e) {
    return (e as Error).message;
  }
};

describe("Nova's wording of the first schema error", () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      server: {
        type: 'object',
        properties: {
          name: { type: 'string', format: 'name' },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['name'],
      },
    },
    required: ['server'],
    additionalProperties: false,
  };

  it('names the last path element for a body, the bare message at the top level', () => {
    expect(thrown(() => validateBody(requestSchema(schema), { server: { name: 'a', tags: ['x', 1] } }))).toBe(
      "Invalid input for field/attribute 1. Value: 1. 1 is not of type 'string'",
    );
    expect(thrown(() => validateBody(requestSchema(schema), { server: {} }))).toBe(
      "Invalid input for field/attribute server. Value: {}. 'name' is a required property",
    );
    expect(thrown(() => validateBody(requestSchema(schema), { x: 1 }))).toBe(
      "'server' is a required property",
    );
    expect(thrown(() => validateBody(requestSchema(schema), undefined))).toBe("None is not of type 'object'");
  });

  it("shows InvalidName's own text", () => {
    expect(thrown(() => validateBody(requestSchema(schema), { server: { name: ' a' } }))).toBe(
      "An invalid 'name' value was provided. The name must be: printable characters. Can not start or end with whitespace.",
    );
  });

  it('names the parameter for a query', () => {
    const query: JsonSchema = {
      type: 'object',
      properties: { limit: { type: 'array', items: { pattern: '^[0-9]*$' } } },
    };
    expect(thrown(() => validateQuery(query, { limit: ['1', 'x'] }))).toBe(
      "Invalid input for query parameters limit. Value: x. 'x' does not match '^[0-9]*$'",
    );
    expect(thrown(() => nonNegativeIntParam({ limit: ['1', '2'] }, 'limit', true))).toBe(
      "Invalid input for query parameters limit. Value: ['1', '2']. ['1', '2'] is too long",
    );
    expect(nonNegativeIntParam({ limit: ['1', '2'] }, 'limit')).toBe(2);
  });
});
