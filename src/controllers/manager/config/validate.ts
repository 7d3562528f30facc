// Validation of the three configuration kinds after defaults and flags, with kube-controller-
// manager 1.35's rules and messages (its options' Validate(), the CSR signer's file rules, the
// IPAM controller's start checks) plus the spec's: every error at once, as a field-error list whose
// paths are the file's (canonical) field names. Messages that name a flag keep the flag's name,
// since that is how most users set the value.

import { type FieldError, invalid, newPath } from '../../../machinery/field-errors.ts';
import {
  CM_FIELD,
  controllerManagerNames,
  type NamingProfile,
  namingProfile,
} from '../../../naming/index.ts';
import {
  controllerAliases,
  knownCloudControllers,
  knownControllerNames,
  validateControllerList,
} from './controllers-flag.ts';
import type { CloudControllerManagerConfiguration } from './types-cloud.ts';
import type { CSRSigningConfiguration, PlatControllerManagerConfiguration } from './types-controllers.ts';
import type { LeaderMigrationConfiguration } from './types-generic.ts';
import {
  atLeastOne,
  type ControllerCatalogue,
  durationOf,
  inRange,
  validateGeneric,
  validateLeaderMigration,
} from './validate-generic.ts';
import { validateNodeIPAM } from './validate-ipam.ts';

export type { ControllerCatalogue } from './validate-generic.ts';

/** The controllers kube-controller-manager knows under the profile. */
export function managerCatalogue(profile: NamingProfile = namingProfile('spec')): ControllerCatalogue {
  return { known: knownControllerNames(profile), aliases: controllerAliases(profile) };
}

function signerPair(s: CSRSigningConfiguration, field: string, flagStem: string): FieldError[] {
  if ((s.CertFile === '') === (s.KeyFile === '')) return [];
  const detail = s.CertFile === '' ? 'cannot specify key without cert' : 'cannot specify cert without key';
  return [invalid(newPath('CSRSigningController', field), s, `${JSON.stringify(flagStem)}: ${detail}`)];
}

function validateCSRSigning(c: PlatControllerManagerConfiguration, profile: NamingProfile): FieldError[] {
  const csr = c.CSRSigningController;
  const flags = controllerManagerNames(profile).flags;
  const specific: [string, string][] = [
    [CM_FIELD.nodeAgentServingSigner, `cluster-signing-${flags.nodeAgentServingSigner}`],
    [CM_FIELD.nodeAgentClientSigner, `cluster-signing-${flags.nodeAgentClientSigner}`],
    [CM_FIELD.apiServerClientSigner, `cluster-signing-${flags.apiServerClientSigner}`],
    ['LegacyUnknownSignerConfiguration', 'cluster-signing-legacy-unknown'],
  ];
  const errs: FieldError[] = [];
  let anySpecific = false;
  for (const [field, stem] of specific) {
    const s = (csr as unknown as Record<string, CSRSigningConfiguration>)[field];
    errs.push(...signerPair(s, field, stem));
    if (s.CertFile !== '' || s.KeyFile !== '') anySpecific = true;
  }
  if ((csr.ClusterSigningCertFile !== '' || csr.ClusterSigningKeyFile !== '') && anySpecific) {
    errs.push(
      invalid(
        newPath('CSRSigningController', 'ClusterSigningCertFile'),
        csr.ClusterSigningCertFile,
        'cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time',
      ),
    );
  }
  // The spec makes this the longest lifetime a signer grants; a non-positive one grants none.
  const durationPath = newPath('CSRSigningController', 'ClusterSigningDuration');
  if (durationOf(csr.ClusterSigningDuration, durationPath, errs) <= 0) {
    errs.push(
      invalid(
        newPath('CSRSigningController', 'ClusterSigningDuration'),
        csr.ClusterSigningDuration,
        'must be greater than zero',
      ),
    );
  }
  return errs;
}

/** Every rule for a PlatControllerManagerConfiguration; empty when it may be used. */
export function validatePlatControllerManagerConfiguration(
  c: PlatControllerManagerConfiguration,
  profile: NamingProfile = namingProfile('spec'),
  controllers: ControllerCatalogue = managerCatalogue(profile),
): FieldError[] {
  const p = newPath;
  const es = c.EndpointSliceController;
  const esm = c.EndpointSliceMirroringController;
  const policySyncs = c.ValidatingAdmissionPolicyStatusController.ConcurrentPolicySyncs;
  const taintSyncs = c.DeviceTaintEvictionController.ConcurrentSyncs;
  return [
    ...validateGeneric(c.Generic, p('Generic'), controllers),
    ...validateCSRSigning(c, profile),
    ...atLeastOne(
      c.DaemonSetController.ConcurrentDaemonSetSyncs,
      p('DaemonSetController', 'ConcurrentDaemonSetSyncs'),
      'concurrent-daemonset-syncs',
    ),
    ...atLeastOne(
      c.StatefulSetController.ConcurrentStatefulSetSyncs,
      p('StatefulSetController', 'ConcurrentStatefulSetSyncs'),
      'concurrent-statefulset-syncs',
    ),
    ...inRange(
      es.ConcurrentServiceEndpointSyncs,
      p('EndpointSliceController', 'ConcurrentServiceEndpointSyncs'),
      'concurrent-service-endpoint-syncs',
      1,
      50,
    ),
    ...inRange(
      es.MaxEndpointsPerSlice,
      p('EndpointSliceController', 'MaxEndpointsPerSlice'),
      'max-endpoints-per-slice',
      1,
      1000,
    ),
    ...inRange(
      esm.MirroringConcurrentServiceEndpointSyncs,
      p('EndpointSliceMirroringController', 'MirroringConcurrentServiceEndpointSyncs'),
      'mirroring-concurrent-service-endpoint-syncs',
      1,
      50,
    ),
    ...inRange(
      esm.MirroringMaxEndpointsPerSubset,
      p('EndpointSliceMirroringController', 'MirroringMaxEndpointsPerSubset'),
      'mirroring-max-endpoints-per-subset',
      1,
      1000,
    ),
    ...atLeastOne(
      c.EphemeralVolumeController.ConcurrentEphemeralVolumeSyncs,
      p('EphemeralVolumeController', 'ConcurrentEphemeralVolumeSyncs'),
      'concurrent-ephemeralvolume-syncs',
    ),
    ...atLeastOne(
      c.HPAController.ConcurrentHorizontalPodAutoscalerSyncs,
      p('HPAController', 'ConcurrentHorizontalPodAutoscalerSyncs'),
      'concurrent-horizontal-pod-autoscaler-syncs',
    ),
    ...atLeastOne(
      c.JobController.ConcurrentJobSyncs,
      p('JobController', 'ConcurrentJobSyncs'),
      'concurrent-job-syncs',
    ),
    ...atLeastOne(
      c.CronJobController.ConcurrentCronJobSyncs,
      p('CronJobController', 'ConcurrentCronJobSyncs'),
      'concurrent-cron-job-syncs',
    ),
    ...validateNodeIPAM(c),
    ...(policySyncs <= 0
      ? [
          // Upstream leaves the flag's name out here: its command line prints it before the message.
          invalid(
            p('ValidatingAdmissionPolicyStatusController', 'ConcurrentPolicySyncs'),
            policySyncs,
            `must be positive, got ${policySyncs}`,
          ),
        ]
      : []),
    ...(taintSyncs <= 0
      ? [
          invalid(
            p('DeviceTaintEvictionController', 'ConcurrentSyncs'),
            taintSyncs,
            `concurrent-device-taint-eviction-syncs must be greater than zero, got ${taintSyncs}`,
          ),
        ]
      : []),
  ];
}

/** The cloud controller manager's known controllers. */
export function cloudCatalogue(): ControllerCatalogue {
  const known = knownCloudControllers();
  const aliases = new Map<string, string>();
  for (const c of known) for (const a of c.aliases) aliases.set(a, c.name);
  return { known: known.map((c) => c.name), aliases };
}

/** Every rule for a CloudControllerManagerConfiguration; `webhooks` are the provider's. */
export function validateCloudControllerManagerConfiguration(
  c: CloudControllerManagerConfiguration,
  webhooks: readonly string[] = [],
  controllers: ControllerCatalogue = cloudCatalogue(),
): FieldError[] {
  const errs = validateGeneric(c.Generic, newPath('Generic'), controllers);
  const syncs = c.NodeController.ConcurrentNodeSyncs;
  if (syncs <= 0) {
    errs.push(
      invalid(
        newPath('NodeController', 'ConcurrentNodeSyncs'),
        syncs,
        'concurrent-node-syncs must be a positive number',
      ),
    );
  }
  errs.push(
    ...validateControllerList(
      c.Webhook.Webhooks,
      newPath('Webhook', 'Webhooks'),
      webhooks,
      new Map(),
      'webhooks',
    ),
  );
  if (c[CM_FIELD.cloudShared].CloudProvider.Name === '') {
    errs.push(
      invalid(newPath(CM_FIELD.cloudShared, 'CloudProvider', 'Name'), '', '--cloud-provider cannot be empty'),
    );
  }
  return errs;
}

/** A LeaderMigrationConfiguration file's rules. */
export function validateLeaderMigrationConfiguration(m: LeaderMigrationConfiguration): FieldError[] {
  return validateLeaderMigration(m, null);
}
