import type { ReactNode } from 'react';

export const inputClass =
  'mt-1 block w-full rounded border border-slate-300 bg-white px-3 py-2 text-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30 disabled:bg-slate-100 disabled:text-slate-600 aria-[invalid=true]:border-red-600';

/** The id of a field's error text, for aria-describedby on the input. */
export const errorIdFor = (id: string) => `${id}-error`;
export const hintIdFor = (id: string) => `${id}-hint`;

/**
 * aria props for an input inside <Field>: invalid state and what describes it
 * (the error when there is one, else the hint).
 */
export function fieldAria(id: string, error: string | undefined, hasHint = false) {
  const describedBy = error ? errorIdFor(id) : hasHint ? hintIdFor(id) : undefined;
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy } as const;
}

/** A labelled form field with a hint and an error message under it. */
export function Field(props: {
  label: ReactNode;
  id: string;
  error?: string | undefined;
  children: ReactNode;
  hint?: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={props.id} className="block text-sm font-medium text-slate-800">
        {props.label}
      </label>
      {props.children}
      {props.hint && !props.error && (
        <p className="mt-1 break-words text-xs text-slate-600" id={hintIdFor(props.id)}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p className="mt-1 break-words text-sm text-red-700" id={errorIdFor(props.id)}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A form's own error (not one field's), read out when it appears. */
export function FormAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      {message}
    </p>
  );
}
