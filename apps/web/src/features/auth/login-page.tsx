import { LoginForm } from './login-form';

export function LoginPage() {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <section
        className="w-full max-w-sm space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
        aria-labelledby="login-title"
      >
        <div>
          <h1 id="login-title" className="text-xl font-semibold">
            Sign in to Shared volumes
          </h1>
          <p className="mt-1 text-sm text-slate-600">Use your OpenStack user name and password.</p>
        </div>
        <LoginForm />
      </section>
    </main>
  );
}
