// Feature gates the server knows, with upstream 1.35's defaults; `--feature-gates` overrides them.

export const FEATURE_GATE_DEFAULTS: Readonly<Record<string, boolean>> = {
  AllowUnsafeMalformedObjectDeletion: false,
  APIResponseCompression: true,
  // Alpha: CBOR request and response bodies (application/cbor, cbor-seq watches, apply-patch+cbor).
  CBORServingAndStorage: false,
  // Beta since 1.33: declarative validation runs beside the hand-written rules it covers and the
  // two are compared (mismatches counted); Takeover makes the declarative errors the answer.
  DeclarativeValidation: true,
  DeclarativeValidationTakeover: false,
  // Beta and on since 1.35: the workload controllers report status.terminatingReplicas.
  DeploymentReplicaSetTerminatingReplicas: true,
  ListFromCacheSnapshot: true,
  WatchList: true,
};

/** A gate lookup over the defaults and the operator's overrides. */
export function featureGates(overrides: Readonly<Record<string, boolean>> = {}): (name: string) => boolean {
  return (name) => overrides[name] ?? FEATURE_GATE_DEFAULTS[name] ?? false;
}
