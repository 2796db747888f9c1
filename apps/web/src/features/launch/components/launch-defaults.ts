import { useEffect, useRef } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { LaunchRequest } from '@sv/shared';
import { useKeyPairs, useNetworkChoices, useSecurityGroupChoices } from '../api/get-launch-choices';
import type { KeyChoice, LaunchFormContext, LaunchFormValues } from './launch-form';

type LaunchForm = UseFormReturn<LaunchFormValues, LaunchFormContext, LaunchRequest>;

/**
 * The wizard's starting choices, set once each as the lists load (and never again, so what the user
 * clears stays cleared): the project's only network, or none where the cloud has no network to give;
 * the project's `default` security group; the user's only key pair.
 */
export function useLaunchDefaults(form: LaunchForm, setKeyChoice: (choice: KeyChoice) => void) {
  const networks = useNetworkChoices().data;
  const securityGroups = useSecurityGroupChoices().data;
  const keyPairs = useKeyPairs().data;
  const applied = useRef({ networks: false, securityGroups: false, keyPair: false });

  useEffect(() => {
    if (!networks || applied.current.networks) return;
    applied.current.networks = true;
    if (form.getValues('networks') !== undefined) return;
    const usable = networks.networks.filter((n) => !n.external);
    if (!networks.networkService || networks.networks.length === 0) {
      // Launching without a network is then the only way; say it to the cloud where it understands.
      if (networks.noneAllowed) form.setValue('networks', 'none');
    } else {
      // One network: it; several: the user chooses (an empty choice asks them to).
      form.setValue('networks', usable.length === 1 && usable[0] ? [usable[0].id] : []);
    }
  }, [networks, form]);

  useEffect(() => {
    if (!securityGroups || applied.current.securityGroups) return;
    applied.current.securityGroups = true;
    const byDefault = securityGroups.securityGroups.find((g) => g.name === 'default');
    if (form.getValues('securityGroups') === undefined && byDefault) {
      form.setValue('securityGroups', [byDefault.id]);
    }
  }, [securityGroups, form]);

  useEffect(() => {
    if (!keyPairs || applied.current.keyPair) return;
    applied.current.keyPair = true;
    const only = keyPairs.keyPairs.length === 1 ? keyPairs.keyPairs[0] : undefined;
    if (only && form.getValues('keyName') === undefined) {
      form.setValue('keyName', only.name);
      setKeyChoice('existing');
    }
  }, [keyPairs, form, setKeyChoice]);
}
