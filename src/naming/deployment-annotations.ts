// Names the deployment controller writes on Deployments and their ReplicaSets: the revision and its
// history, the desired and maximum replica counts used for proportional scaling, the deprecated
// rollback request, and the label that tells the ReplicaSets of one Deployment apart.

import { labelKey, type NamingProfile, UPSTREAM_ALIASES } from './profile.ts';

export interface DeploymentAnnotationNames {
  /** The rollout sequence number of a ReplicaSet (and the Deployment's current one). */
  readonly revision: string;
  /**
   * Upstream's name of the revision annotation, written beside ours under the spec profile: stock
   * kubectl reads revisions only under it (`rollout history`, `rollout undo`). Undefined when the
   * profile's name is upstream's.
   */
  readonly revisionAlias: string | undefined;
  /** Earlier revisions a ReplicaSet served before a rollback made it current again. */
  readonly revisionHistory: string;
  /** The Deployment's replicas when the ReplicaSet was last sized. */
  readonly desiredReplicas: string;
  /** replicas + maxSurge when the ReplicaSet was last sized. */
  readonly maxReplicas: string;
  /** The pre-apps/v1 rollback request, still honoured by upstream's controller. */
  readonly rollbackTo: string;
  /** The label (and selector requirement) carrying the pod template's hash. */
  readonly podTemplateHashLabel: string;
  /** Annotations never copied from a Deployment to its ReplicaSets besides the ones above. */
  readonly notCopied: readonly string[];
}

export function deploymentAnnotationNames(profile: NamingProfile): DeploymentAnnotationNames {
  const own = (name: string) =>
    labelKey({ ...profile, labelDomain: `deployment.${profile.labelDomain}` }, name);
  const revision = own('revision');
  return {
    revision,
    revisionAlias:
      revision === UPSTREAM_ALIASES.deploymentRevisionAnnotation
        ? undefined
        : UPSTREAM_ALIASES.deploymentRevisionAnnotation,
    revisionHistory: own('revision-history'),
    desiredReplicas: own('desired-replicas'),
    maxReplicas: own('max-replicas'),
    rollbackTo: 'deprecated.deployment.rollback.to',
    podTemplateHashLabel: 'pod-template-hash',
    notCopied: [UPSTREAM_ALIASES.lastAppliedAnnotation],
  };
}
