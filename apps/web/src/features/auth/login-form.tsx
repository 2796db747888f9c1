import { zodResolver } from '@hookform/resolvers/zod';
import { type LoginRequest, loginRequestSchema, type Session } from '@sv/shared';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Field, inputClass } from '../../components/ui/field';
import { ApiRequestError } from '../../lib/api-client';
import { useLogin } from './api';

type LoginFormValues = z.input<typeof loginRequestSchema>;

/**
 * User name, password and project, sent to the BFF's session endpoint. Used by the sign-in page and
 * by the dialog that asks to sign in again when a session ends in the middle of work.
 */
export function LoginForm({
  initial,
  previous,
  onSignedIn,
  submitLabel = 'Sign in',
}: {
  /** The session that ended, when this form signs in again (see useLogin). */
  previous?: Session;
  /** Pre-filled values (the previous session's user and project when signing in again). */
  initial?: Partial<LoginFormValues>;
  onSignedIn?: (session: Session) => void;
  submitLabel?: string;
}) {
  const login = useLogin(previous ? { previous } : {});
  const form = useForm<LoginFormValues, unknown, LoginRequest>({
    resolver: zodResolver(loginRequestSchema),
    defaultValues: { username: '', password: '', project: '', domain: 'Default', ...initial },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const session = await login.mutateAsync({ ...values, project: values.project || undefined });
      onSignedIn?.(session);
    } catch (err) {
      form.setError('root', { message: err instanceof ApiRequestError ? err.message : 'Sign-in failed.' });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Sign in">
      {errors.root && (
        <p role="alert" className="rounded border border-red-200 bg-red-50 p-2 text-sm text-red-800">
          {errors.root.message}
        </p>
      )}
      <Field label="User name" id="username" error={errors.username?.message}>
        <input
          id="username"
          autoComplete="username"
          className={inputClass}
          aria-invalid={!!errors.username}
          {...form.register('username')}
        />
      </Field>
      <Field label="Password" id="password" error={errors.password?.message}>
        <input
          id="password"
          type="password"
          autoComplete="current-password"
          className={inputClass}
          aria-invalid={!!errors.password}
          {...form.register('password')}
        />
      </Field>
      <Field label="Project (optional)" id="project" error={errors.project?.message}>
        <input id="project" className={inputClass} {...form.register('project')} />
      </Field>
      <button
        type="submit"
        disabled={login.isPending}
        className="w-full rounded bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {login.isPending ? 'Signing in…' : submitLabel}
      </button>
    </form>
  );
}
