// Reading a configuration file: YAML or JSON text to a defaulted configuration of one of the three
// kinds. The apiVersion must be the kind's group at v1alpha1 under the profile's name, or under
// upstream's name (`kubecontrollermanager.config.k8s.io/v1alpha1`), in which case the file also
// spells the brand-bearing fields as upstream does. Decoding is strict: every unknown field,
// repeated key and wrongly typed value is reported, all at once, with its field path. Semantic
// rules are validate.ts's; flags are applied between the two (flags.ts).

import { aggregateMessage, type FieldError } from '../../../machinery/field-errors.ts';
import {
  type ControllerManagerNames,
  controllerManagerNames,
  type NamingProfile,
  namingProfile,
} from '../../../naming/index.ts';
import { convertObject } from './convert.ts';
import {
  type DeepPartial,
  defaultCloudControllerManagerConfiguration,
  defaultLeaderMigrationFile,
  defaultPlatControllerManagerConfiguration,
} from './defaults.ts';
import { ConfigSyntaxError, parseConfigText } from './parse-text.ts';
import { cloudManagerShape, leaderMigrationShape, managerShape, type ObjectShape } from './schema.ts';
import type { CloudControllerManagerConfiguration } from './types-cloud.ts';
import type { PlatControllerManagerConfiguration } from './types-controllers.ts';
import type { LeaderMigrationConfiguration } from './types-generic.ts';

export const CONFIG_VERSION = 'v1alpha1';

/** A file that cannot be used: its syntax, its kind, or the listed field errors. */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
  constructor(
    message: string,
    readonly errors: readonly FieldError[] = [],
  ) {
    super(message);
  }
}

/** Throws ConfigurationError when the list is not empty. */
export function failOnErrors(errors: readonly FieldError[]): void {
  if (errors.length > 0) throw new ConfigurationError(aggregateMessage(errors), errors);
}

type KindOf = (n: ControllerManagerNames) => { group: string; kind: string; versions?: readonly string[] };

/**
 * The file's object checked against the kind and converted to its canonical keys. A file in the
 * upstream group is read with upstream's field names.
 */
function decodeKind(
  text: string,
  profile: NamingProfile,
  kindOf: KindOf,
  shapeOf: (n: ControllerManagerNames) => ObjectShape,
): Record<string, unknown> {
  let parsed: ReturnType<typeof parseConfigText>;
  try {
    parsed = parseConfigText(text);
  } catch (err) {
    if (err instanceof ConfigSyntaxError) throw new ConfigurationError(err.message);
    throw err;
  }
  const raw = parsed.value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigurationError("couldn't get version/kind; json parse error: not an object");
  }
  const obj = raw as Record<string, unknown>;
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  if (kind === '') throw new ConfigurationError(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  const own = controllerManagerNames(profile);
  const upstream = controllerManagerNames(namingProfile('upstream'));
  const names = [own, upstream].find((n) => {
    const k = kindOf(n);
    const versions = k.versions ?? [CONFIG_VERSION];
    return versions.some((v) => apiVersion === `${k.group}/${v}`) && kind === k.kind;
  });
  if (names === undefined) {
    throw new ConfigurationError(
      `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`,
    );
  }
  const errors: FieldError[] = [...parsed.duplicates];
  const out = convertObject(obj, shapeOf(names), null, errors);
  failOnErrors(errors);
  delete out.apiVersion;
  delete out.kind;
  return out;
}

/** A PlatControllerManagerConfiguration file, defaulted. Throws ConfigurationError. */
export function decodePlatControllerManagerConfiguration(
  text: string,
  profile: NamingProfile = namingProfile('spec'),
): PlatControllerManagerConfiguration {
  const partial = decodeKind(
    text,
    profile,
    (n) => ({ group: n.managerGroup, kind: n.managerKind }),
    (n) => managerShape(n.fields),
  );
  return defaultPlatControllerManagerConfiguration(
    partial as DeepPartial<PlatControllerManagerConfiguration>,
    profile,
  );
}

/** A CloudControllerManagerConfiguration file, defaulted. Throws ConfigurationError. */
export function decodeCloudControllerManagerConfiguration(
  text: string,
  profile: NamingProfile = namingProfile('spec'),
): CloudControllerManagerConfiguration {
  const partial = decodeKind(
    text,
    profile,
    (n) => ({ group: n.cloudManagerGroup, kind: n.cloudManagerKind }),
    (n) => cloudManagerShape(n.fields),
  );
  return defaultCloudControllerManagerConfiguration(
    partial as DeepPartial<CloudControllerManagerConfiguration>,
    profile,
  );
}

/** A LeaderMigrationConfiguration file (--leader-migration-config). Throws ConfigurationError. */
export function decodeLeaderMigrationConfiguration(
  text: string,
  profile: NamingProfile = namingProfile('spec'),
): LeaderMigrationConfiguration {
  const partial = decodeKind(
    text,
    profile,
    // Upstream reads this kind at three versions with one shape.
    (n) => ({
      group: n.leaderMigrationGroup,
      kind: 'LeaderMigrationConfiguration',
      versions: ['v1alpha1', 'v1beta1', 'v1'],
    }),
    () => leaderMigrationShape,
  );
  return defaultLeaderMigrationFile(partial as DeepPartial<LeaderMigrationConfiguration>);
}
