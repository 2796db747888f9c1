import { keyPairNameSchema } from '@sv/shared';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Button, buttonClass } from '../../../components/ui/button';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, fieldAria, inputClass } from '../../../components/ui/field';
import { Loading } from '../../../components/ui/spinner';
import { useCreateKeyPair, useKeyPairs } from '../api/get-launch-choices';
import { errorAt, type KeyChoice, useLaunchForm } from './launch-form';

/** A key pair the cloud made in this wizard, with its private key until the user says it is saved. */
export interface NewKeyPair {
  name: string;
  privateKey: string;
}

const CHOICES: readonly [KeyChoice, string][] = [
  ['existing', 'A key pair you have'],
  ['import', 'Import a public key'],
  ['create', 'Create a new key pair'],
  ['none', 'No key pair'],
];

/**
 * Step 8: how the user logs in. An existing pair, a public key imported, or a new pair whose
 * private key is shown once (the cloud keeps only the public half, the dashboard keeps nothing).
 */
export function KeyPairStep({
  choice,
  onChoice,
  newKey,
  onNewKey,
  onSaved,
}: {
  choice: KeyChoice | null;
  onChoice: (choice: KeyChoice) => void;
  newKey: NewKeyPair | null;
  onNewKey: (key: NewKeyPair) => void;
  onSaved: () => void;
}) {
  const form = useLaunchForm();
  const keyPairs = useKeyPairs();
  const keyName = useWatch({ control: form.control, name: 'keyName' });
  const error = errorAt(form.formState.errors, 'keyName');
  const errorId = 'launch-key-error';

  if (keyPairs.isPending) return <Loading label="Loading key pairs…" />;
  if (keyPairs.isError)
    return (
      <ErrorMessage
        title="The key pairs could not be loaded"
        error={keyPairs.error}
        onRetry={() => keyPairs.refetch()}
      />
    );
  const pairs = keyPairs.data.keyPairs;
  const setKey = (name: string | undefined) =>
    form.setValue('keyName', name, { shouldDirty: true, shouldTouch: true });
  const pick = (next: KeyChoice) => {
    onChoice(next);
    // A new pair stays chosen while its private key waits to be confirmed saved.
    if (!(next === 'create' && newKey)) setKey(undefined);
    else setKey(newKey.name);
  };

  return (
    <div className="max-w-2xl space-y-4">
      <fieldset aria-describedby={error && choice !== 'existing' ? errorId : undefined}>
        <legend className="mb-2 text-sm font-medium text-slate-800">How you log in to the servers</legend>
        <div className="flex flex-wrap gap-2">
          {CHOICES.map(([id, label]) => {
            const disabled = id === 'existing' && pairs.length === 0;
            return (
              <label
                key={id}
                htmlFor={`key-choice-${id}`}
                className={`flex items-center gap-2 rounded border p-2 text-sm ${
                  choice === id ? 'border-blue-600 bg-blue-50' : 'border-slate-300 bg-white'
                } ${disabled ? 'cursor-not-allowed text-slate-600' : 'cursor-pointer'}`}
              >
                <input
                  type="radio"
                  id={`key-choice-${id}`}
                  name="key-choice"
                  checked={choice === id}
                  disabled={disabled}
                  onChange={() => pick(id)}
                />
                {label}
                {disabled && <span className="text-xs">(you have none)</span>}
              </label>
            );
          })}
        </div>
        {error && choice !== 'existing' && (
          <p id={errorId} className="mt-2 text-sm text-red-700">
            {error}
          </p>
        )}
      </fieldset>

      {choice === 'existing' && (
        <Field label="Key pair" id="launch-key-name" error={error} hint="Injected into every server.">
          <select
            id="launch-key-name"
            className={inputClass}
            value={keyName ?? ''}
            onChange={(e) => {
              setKey(e.target.value || undefined);
              void form.trigger('keyName');
            }}
            {...fieldAria('launch-key-name', error, true)}
          >
            <option value="">Choose a key pair</option>
            {pairs.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name} ({p.type}, {p.fingerprint})
              </option>
            ))}
          </select>
        </Field>
      )}
      {(choice === 'import' || (choice === 'create' && !newKey)) && (
        <NewKeyForm
          importing={choice === 'import'}
          taken={pairs.map((p) => p.name)}
          done={choice === 'import' ? keyName : undefined}
          onMade={(name, privateKey) => {
            setKey(name);
            if (privateKey) onNewKey({ name, privateKey });
            void form.trigger('keyName');
          }}
        />
      )}
      {choice === 'create' && newKey && <PrivateKeyOnce newKey={newKey} onSaved={onSaved} />}
      {choice === 'create' && !newKey && keyName && (
        <p role="status" className="rounded bg-green-50 p-2 text-sm text-green-900">
          Key pair {keyName} created. Its private key is no longer shown.
        </p>
      )}
      {choice === 'none' && (
        <p role="note" className="rounded border border-slate-300 bg-slate-50 p-2 text-sm text-slate-800">
          The servers get no key pair: you can log in only if the image lets you in another way (a password,
          or keys given in user data).
        </p>
      )}
    </div>
  );
}

/** Name (and for an import, the public key) of a pair to make now, in the cloud. */
function NewKeyForm({
  importing,
  taken,
  done,
  onMade,
}: {
  importing: boolean;
  taken: string[];
  /** The pair already imported here, if any. */
  done: string | undefined;
  onMade: (name: string, privateKey: string | null) => void;
}) {
  const create = useCreateKeyPair();
  const [name, setName] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [keyError, setKeyError] = useState<string | undefined>();

  const submit = () => {
    const parsedName = keyPairNameSchema.safeParse(name);
    const nameProblem = parsedName.success
      ? taken.includes(parsedName.data)
        ? `You already have a key pair called ${parsedName.data}`
        : undefined
      : parsedName.error.issues[0]?.message;
    const keyProblem =
      importing && !publicKey.trim() ? 'Paste the public key (ssh-ed25519 …, ssh-rsa …)' : undefined;
    setNameError(nameProblem);
    setKeyError(keyProblem);
    if (nameProblem || keyProblem || !parsedName.success) return;
    create.mutate(
      { name: parsedName.data, ...(importing ? { publicKey: publicKey.trim() } : {}) },
      { onSuccess: (made) => onMade(made.keyPair.name, made.privateKey) },
    );
  };

  return (
    <div className="space-y-3 rounded border border-slate-200 bg-white p-3">
      <Field
        label="Key pair name"
        id="launch-new-key-name"
        error={nameError}
        hint="Letters, digits, spaces, dot, dash and underscore."
      >
        <input
          id="launch-new-key-name"
          autoComplete="off"
          className={inputClass}
          value={name}
          onChange={(e) => setName(e.target.value)}
          {...fieldAria('launch-new-key-name', nameError, true)}
        />
      </Field>
      {importing && (
        <Field
          label="Public key"
          id="launch-public-key"
          error={keyError}
          hint="The contents of your id_ed25519.pub or id_rsa.pub."
        >
          <textarea
            id="launch-public-key"
            rows={3}
            className={`${inputClass} font-mono text-xs`}
            value={publicKey}
            onChange={(e) => setPublicKey(e.target.value)}
            {...fieldAria('launch-public-key', keyError, true)}
          />
        </Field>
      )}
      {create.isError && (
        <ErrorMessage
          title={importing ? 'The key could not be imported' : 'The key pair could not be created'}
          error={create.error}
        />
      )}
      {done && (
        <p role="status" className="rounded bg-green-50 p-2 text-sm text-green-900">
          Key pair {done} imported; the servers get it.
        </p>
      )}
      <Button onClick={submit} loading={create.isPending}>
        {importing ? 'Import key pair' : 'Create key pair'}
      </Button>
    </div>
  );
}

/** The new private key, once: a warning, the key, a download, and the user's word that it is saved. */
function PrivateKeyOnce({ newKey, onSaved }: { newKey: NewKeyPair; onSaved: () => void }) {
  const file = `${newKey.name}.pem`;
  return (
    <section
      aria-labelledby="private-key-title"
      className="space-y-3 rounded border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <h3 id="private-key-title" className="font-semibold">
        Save the private key of {newKey.name} now
      </h3>
      <p role="alert">
        It is shown only this once. The cloud keeps only the public half and the dashboard does not keep it:
        without this file you cannot log in with this key pair.
      </p>
      <label htmlFor="launch-private-key" className="sr-only">
        Private key of {newKey.name}
      </label>
      <textarea
        id="launch-private-key"
        readOnly
        rows={4}
        className={`${inputClass} font-mono text-xs`}
        value={newKey.privateKey}
      />
      <a
        href={`data:application/x-pem-file;charset=utf-8,${encodeURIComponent(newKey.privateKey)}`}
        download={file}
        className={buttonClass('primary')}
      >
        Download {file}
      </a>
      <div className="flex items-start gap-2">
        <input
          id="launch-private-key-saved"
          type="checkbox"
          className="mt-0.5 h-4 w-4"
          onChange={(e) => e.target.checked && onSaved()}
        />
        <label htmlFor="launch-private-key-saved" className="font-medium">
          I have saved the private key
        </label>
      </div>
    </section>
  );
}
