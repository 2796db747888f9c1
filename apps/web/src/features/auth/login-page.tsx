import { zodResolver } from '@hookform/resolvers/zod';
import { type LoginRequest, loginRequestSchema } from '@sv/shared';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Field, inputClass } from '../../components/ui/field';
import { ApiRequestError } from '../../lib/api-client';
import { useLogin } from './api';

type LoginForm = z.input<typeof loginRequestSchema>;

export function LoginPage() {
  const login = useLogin();
  const form = useForm<LoginForm, unknown, LoginRequest>({
    resolver: zodResolver(loginRequestSchema),
    defaultValues: { username: '', password: '', project: '', domain: 'Default' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await login.mutateAsync({ ...values, project: values.project || undefined });
    } catch (err) {
      form.setError('root', { message: err instanceof ApiRequestError ? err.message : 'Sign-in failed.' });
    }
  });

  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <form
        onSubmit={onSubmit}
        noValidate
        className="w-full max-w-sm space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
        aria-labelledby="login-title"
      >
        <div>
          <h1 id="login-title" className="text-xl font-semibold">
            Sign in to Shared volumes
          </h1>
          <p className="mt-1 text-sm text-slate-600">Use your OpenStack user name and password.</p>
        </div>
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
          {login.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
