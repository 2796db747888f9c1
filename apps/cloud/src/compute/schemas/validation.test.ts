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

describe('format checks stay linear on long input', () => {
  const body = (props: Record<string, JsonSchema>) => requestSchema({ type: 'object', properties: props });
  const timed = (f: () => void) => {
    const started = performance.now();
    thrown(f);
    return performance.now() - started;
  };

  it('base64 and names with spaces judge 200 KB strings at once (both backtracked quadratically)', () => {
    const spaces = `${' '.repeat(200_000)}!`;
    // 200 KB of whitespace and one bad character: about 25 s with the backtracking pattern.
    expect(
      timed(() => validateBody(body({ u: { type: 'string', format: 'base64' } }), { u: spaces })),
    ).toBeLessThan(500);
    expect(
      thrown(() => validateBody(body({ u: { type: 'string', format: 'base64' } }), { u: spaces })),
    ).toMatch(/is not a 'base64'$/);
    const name = body({ n: { type: 'string', format: 'name_with_leading_trailing_spaces' } });
    expect(
      timed(() => thrown(() => validateBody(name, { n: `${'! '.repeat(100_000)}\u0001` }))),
    ).toBeLessThan(500);
    expect(thrown(() => validateBody(name, { n: ' a ' }))).toBeNull();
    expect(thrown(() => validateBody(name, { n: '   ' }))).toMatch(/at least one non space character$/);
    expect(
      thrown(() => validateBody(body({ u: { type: 'string', format: 'base64' } }), { u: 'YQ==\n' })),
    ).toBeNull();
  });

  it('a numeric-string bound judges a long non-number at once', () => {
    const schema = body({ n: { type: ['integer', 'string'], minimum: 1 } });
    expect(timed(() => validateBody(schema, { n: `${'0'.repeat(200_000)}x` }))).toBeLessThan(500);
    expect(thrown(() => validateBody(schema, { n: '0' }))).toMatch(/0 is less than the minimum of 1$/);
    expect(thrown(() => validateBody(schema, { n: '1.5e0' }))).toBeNull();
  });
});
