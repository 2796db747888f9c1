import { STEPS } from './launch-form';

/**
 * The steps, in order: the current one marked aria-current="step"; steps not reached yet are
 * disabled; a step with errors says so (in words, not only colour).
 */
export function WizardStepper({
  current,
  reached,
  withErrors,
  onGo,
}: {
  current: number;
  reached: number;
  withErrors: ReadonlySet<number>;
  onGo: (index: number) => void;
}) {
  return (
    <nav aria-label="Launch steps">
      <ol className="relative flex gap-1 overflow-x-auto lg:flex-col">
        {STEPS.map((step, i) => {
          const isCurrent = i === current;
          const bad = withErrors.has(i) && i !== current;
          const done = i < reached && !isCurrent && !bad;
          return (
            <li key={step.id} className="shrink-0">
              <button
                type="button"
                onClick={() => onGo(i)}
                disabled={i > reached}
                aria-current={isCurrent ? 'step' : undefined}
                className={`flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-sm focus-visible:outline-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed ${
                  isCurrent
                    ? 'bg-blue-50 font-semibold text-blue-900'
                    : i > reached
                      ? 'text-slate-600'
                      : 'text-slate-800 hover:bg-slate-100'
                }`}
              >
                <span
                  aria-hidden="true"
                  className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${
                    bad
                      ? 'bg-red-700 text-white'
                      : isCurrent
                        ? 'bg-blue-700 text-white'
                        : done
                          ? 'bg-green-700 text-white'
                          : 'border border-slate-400 text-slate-700'
                  }`}
                >
                  {bad ? '!' : done ? '✓' : i + 1}
                </span>
                <span>
                  <span className="sr-only">Step {i + 1}: </span>
                  {step.title}
                  {bad && <span className="sr-only"> (needs attention)</span>}
                  {done && <span className="sr-only"> (done)</span>}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
