// Validation of the shared sections, with upstream's rules and messages: the generic section's
// --controllers items and leader election (controller-manager options, component-base's field
// validation and client-go's leader elector checks), the client connection, leader migration, and
// the cloud controller manager's own sections. Every rule runs; the caller gets all errors at once.

import { type FieldError, FieldPath, invalid, required } from '../../../machinery/field-errors.ts';
import { validateControllerList } from './controllers-flag.ts';
import { durationMs } from './go-duration.ts';
import type {
  ClientConnectionConfiguration,
  GenericControllerManagerConfiguration,
  LeaderElectionConfiguration,
  LeaderMigrationConfiguration,
} from './types-generic.ts';

/** What a manager knows of its controllers: canonical names and aliases. */
export interface ControllerCatalogue {
  readonly known: readonly string[];
  readonly aliases: ReadonlyMap<string, string>;
}

/** client-go's leader elector keeps renewals this far apart from retries. */
const JITTER_FACTOR = 1.2;

/**
 * Milliseconds of a duration field, or NaN with an error when its text is not a duration (a
 * configuration built in code rather than decoded may hold anything).
 */
export function durationOf(d: string, path: FieldPath, errs: FieldError[]): number {
  try {
    return durationMs(d);
  } catch (err) {
    errs.push(invalid(path, d, (err as Error).message));
    return Number.NaN;
  }
}

export function validateLeaderElection(le: LeaderElectionConfiguration, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!le.leaderElect) return errs;
  // Only Lease locks remain upstream (controller-manager's generic options).
  if (le.resourceLock !== 'leases') {
    errs.push(invalid(path.child('resourceLock'), le.resourceLock, 'resourceLock value must be "leases"'));
  }
  const lease = durationOf(le.leaseDuration, path.child('leaseDuration'), errs);
  const renew = durationOf(le.renewDeadline, path.child('renewDeadline'), errs);
  const retry = durationOf(le.retryPeriod, path.child('retryPeriod'), errs);
  if (Number.isNaN(lease) || Number.isNaN(renew) || Number.isNaN(retry)) return errs;
  if (lease <= 0)
    errs.push(invalid(path.child('leaseDuration'), le.leaseDuration, 'must be greater than zero'));
  if (renew <= 0)
    errs.push(invalid(path.child('renewDeadline'), le.renewDeadline, 'must be greater than zero'));
  if (retry <= 0) errs.push(invalid(path.child('retryPeriod'), le.retryPeriod, 'must be greater than zero'));
  // The spec allows renewDeadline up to leaseDuration (component-base's comment says "less than or
  // equal"); as upstream, the error sits on leaseDuration and shows renewDeadline.
  if (renew > lease) {
    errs.push(
      invalid(
        path.child('leaseDuration'),
        le.renewDeadline,
        'must be greater than or equal to `RenewDeadline`',
      ),
    );
  }
  if (renew > 0 && retry > 0 && renew <= retry * JITTER_FACTOR) {
    errs.push(
      invalid(path.child('renewDeadline'), le.renewDeadline, 'must be greater than retryPeriod*JitterFactor'),
    );
  }
  if (le.resourceNamespace === '') errs.push(required(path.child('resourceNamespace')));
  if (le.resourceName === '') errs.push(required(path.child('resourceName')));
  return errs;
}

export function validateClientConnection(cc: ClientConnectionConfiguration, path: FieldPath): FieldError[] {
  return cc.burst < 0 ? [invalid(path.child('burst'), cc.burst, 'must be non-negative')] : [];
}

/** controller-manager's ValidateLeaderMigrationConfiguration; `path` null for a file of its own. */
export function validateLeaderMigration(
  m: LeaderMigrationConfiguration,
  path: FieldPath | null,
): FieldError[] {
  const at = (name: string) => (path === null ? FieldPath.of(name) : path.child(name));
  const errs: FieldError[] = [];
  if (m.leaderName === '') {
    errs.push(required(at('leaderName'), 'leaderName must be set for LeaderMigrationConfiguration'));
  }
  if (m.resourceLock !== 'leases' && m.resourceLock !== 'endpoints') {
    errs.push(
      invalid(at('resourceLock'), m.resourceLock, "resource Lock must be one of 'leases' or 'endpoints'"),
    );
  }
  m.controllerLeaders.forEach((c, i) => {
    const item = at('controllerLeaders').index(i);
    if (c.component === '') errs.push(required(item.child('component')));
    if (c.name === '') errs.push(required(item.child('name')));
  });
  return errs;
}

export function validateGeneric(
  g: GenericControllerManagerConfiguration,
  path: FieldPath,
  controllers: ControllerCatalogue,
): FieldError[] {
  return [
    ...validateControllerList(
      g.Controllers,
      path.child('Controllers'),
      controllers.known,
      controllers.aliases,
    ),
    ...validateClientConnection(g.ClientConnection, path.child('ClientConnection')),
    ...validateLeaderElection(g.LeaderElection, path.child('LeaderElection')),
    ...(g.LeaderMigrationEnabled
      ? validateLeaderMigration(g.LeaderMigration, path.child('LeaderMigration'))
      : []),
  ];
}

/** `<flag> must be greater than 0, but got N` (kube-controller-manager's concurrency options). */
export function atLeastOne(value: number, path: FieldPath, flagName: string): FieldError[] {
  return value < 1 ? [invalid(path, value, `${flagName} must be greater than 0, but got ${value}`)] : [];
}

/** `<flag> must not be less than MIN, but got N` / `must not be more than MAX`. */
export function inRange(
  value: number,
  path: FieldPath,
  flagName: string,
  min: number,
  max: number,
): FieldError[] {
  if (value < min)
    return [invalid(path, value, `${flagName} must not be less than ${min}, but got ${value}`)];
  if (value > max)
    return [invalid(path, value, `${flagName} must not be more than ${max}, but got ${value}`)];
  return [];
}
