// The feature gates the controllers read, with upstream 1.35's defaults; `--feature-gates` of the
// manager (or the control plane's, shared with its API server) overrides them. A gate the manager
// does not know is refused at start, as upstream's manager refuses it.

export const CONTROLLER_FEATURE_GATE_DEFAULTS: Readonly<Record<string, boolean>> = {
  // Beta and on since 1.35: Deployments and ReplicaSets report status.terminatingReplicas.
  DeploymentReplicaSetTerminatingReplicas: true,
};

/** A gate lookup over the defaults and the operator's overrides. */
export function controllerFeatureGates(
  overrides: Readonly<Record<string, boolean>> = {},
  known: Readonly<Record<string, boolean>> = CONTROLLER_FEATURE_GATE_DEFAULTS,
): (name: string) => boolean {
  return (name) => overrides[name] ?? known[name] ?? false;
}

/** The overrides naming a gate nobody knows, in upstream's words; undefined when all are known. */
export function unknownFeatureGate(
  overrides: Readonly<Record<string, boolean>>,
  known: readonly Readonly<Record<string, boolean>>[],
): string | undefined {
  for (const name of Object.keys(overrides)) {
    if (!known.some((k) => Object.hasOwn(k, name))) return `unrecognized feature gate: ${name}`;
  }
  return undefined;
}
