import { expect } from 'vitest';

/*
 * The few DOM assertions the web tests need, without another dependency: import this file
 * for its side effect.
 */

type Result = { pass: boolean; message: () => string };

const isElement = (v: unknown): v is HTMLElement => typeof v === 'object' && v !== null && 'tagName' in v;
const describe = (el: HTMLElement) => `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}>`;
const textOf = (el: HTMLElement) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();

/** The text of the elements aria-describedby points at (what a screen reader reads after the name). */
export function accessibleDescription(el: HTMLElement): string {
  const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  return ids
    .map((id) => el.ownerDocument.getElementById(id))
    .filter((d): d is HTMLElement => d !== null)
    .map(textOf)
    .join(' ');
}

const disabled = (el: HTMLElement) =>
  (el as HTMLInputElement).disabled === true || el.closest('fieldset:disabled') !== null;

function matches(actual: string, expected: string | RegExp): boolean {
  return typeof expected === 'string' ? actual.includes(expected) : expected.test(actual);
}

function check(received: unknown, test: (el: HTMLElement) => Result): Result {
  if (!isElement(received))
    return { pass: false, message: () => `expected an element, got ${String(received)}` };
  return test(received);
}

expect.extend({
  toBeInTheDocument(received: unknown): Result {
    return check(received, (el) => ({
      pass: el.isConnected,
      message: () => `expected ${describe(el)} ${el.isConnected ? 'not ' : ''}to be in the document`,
    }));
  },
  toBeDisabled(received: unknown): Result {
    return check(received, (el) => ({
      pass: disabled(el),
      message: () => `expected ${describe(el)} ${disabled(el) ? 'not ' : ''}to be disabled`,
    }));
  },
  toBeEnabled(received: unknown): Result {
    return check(received, (el) => ({
      pass: !disabled(el),
      message: () => `expected ${describe(el)} ${disabled(el) ? '' : 'not '}to be enabled`,
    }));
  },
  toBeChecked(received: unknown): Result {
    return check(received, (el) => {
      const checked = (el as HTMLInputElement).checked === true;
      return {
        pass: checked,
        message: () => `expected ${describe(el)} ${checked ? 'not ' : ''}to be checked`,
      };
    });
  },
  toHaveFocus(received: unknown): Result {
    return check(received, (el) => {
      const focused = el.ownerDocument.activeElement === el;
      return {
        pass: focused,
        message: () => `expected ${describe(el)} ${focused ? 'not ' : ''}to have focus`,
      };
    });
  },
  toHaveTextContent(received: unknown, expected: string | RegExp): Result {
    return check(received, (el) => ({
      pass: matches(textOf(el), expected),
      message: () => `expected text of ${describe(el)} to match ${String(expected)}, got "${textOf(el)}"`,
    }));
  },
  toHaveAttribute(received: unknown, name: string, value?: string): Result {
    return check(received, (el) => {
      const actual = el.getAttribute(name);
      const pass = actual !== null && (value === undefined || actual === value);
      return {
        pass,
        message: () => `expected ${describe(el)} [${name}] to be ${value ?? 'present'}, got ${actual}`,
      };
    });
  },
  toHaveAccessibleDescription(received: unknown, expected: string | RegExp): Result {
    return check(received, (el) => {
      const actual = accessibleDescription(el);
      return {
        pass: matches(actual, expected),
        message: () =>
          `expected description of ${describe(el)} to match ${String(expected)}, got "${actual}"`,
      };
    });
  },
});

interface DomMatchers<R = unknown> {
  toBeInTheDocument(): R;
  toBeDisabled(): R;
  toBeEnabled(): R;
  toBeChecked(): R;
  toHaveFocus(): R;
  toHaveTextContent(expected: string | RegExp): R;
  toHaveAttribute(name: string, value?: string): R;
  toHaveAccessibleDescription(expected: string | RegExp): R;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: must repeat vitest's own declaration to merge with it
  interface Assertion<T = any> extends DomMatchers<T> {}
}
