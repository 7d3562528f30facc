// The CEL base environment of kube-apiserver 1.35 (k8s.io/apiserver pkg/cel/environment/base.go
// at v0.35.0): which libraries every CEL use in the server gets, the version each was introduced
// at, and whether 1.35 enables it for new expressions. Every feature (authentication claim rules,
// authorization and admission matchConditions, DRA device selectors, CRD validation rules) builds
// its environment with baseEnvironment() and declares only its own variables.
//
// kube-apiserver compiles new or changed expressions against the NewExpressions environment of
// its compatibility version (one minor below the binary: 1.34 for 1.35) and stored ones against
// everything it knows; every library below was introduced at 1.34 or earlier, so 1.35 enables all
// of them for both.

import {
  type CelLibrary,
  createEnvironment,
  type Environment,
  type EnvironmentOptions,
} from './environment.ts';
import { authzLibrary, authzSelectorsLibrary } from './library/authz.ts';
import { cidrLibrary } from './library/cidr.ts';
import { comprehensionsLibrary } from './library/comprehensions.ts';
import { ipLibrary } from './library/ip.ts';
import { listsLibrary } from './library/lists.ts';
import { optionalsLibrary } from './library/optionals.ts';
import { quantityLibrary } from './library/quantity.ts';
import { matchesLibrary, regexLibrary } from './library/regex.ts';
import { semverLibrary } from './library/semver.ts';
import { setsLibrary } from './library/sets.ts';
import { KUBE_STRINGS_VERSION, stringsLibrary } from './library/strings.ts';
import { urlLibrary } from './library/url.ts';

export interface BaseLibrary {
  /** Upstream's library name (`LibraryName()`), or the option's name for language settings. */
  readonly name: string;
  /** What base.go enables, as upstream writes it. */
  readonly upstream: string;
  /** The Kubernetes version base.go introduced it at (1.0 stands for "always", as upstream says). */
  readonly introduced: string;
  /** Whether 1.35 enables it for new expressions (introduced at or before 1.34, not removed). */
  readonly newExpressions: boolean;
  /**
   * Our implementation; undefined while it is not written yet (the list at the end of this file).
   * Language libraries the wrapper installs in every environment are listed with `always`.
   */
  readonly library?: CelLibrary;
  readonly always?: true;
}

/** The compatibility version a 1.35 server compiles new expressions against. */
export const NEW_EXPRESSIONS_COMPATIBILITY_VERSION = '1.34';

function entry(
  name: string,
  upstream: string,
  introduced: string,
  library?: CelLibrary,
  always?: true,
): BaseLibrary {
  const [major, minor] = introduced.split('.').map(Number);
  const newExpressions = major < 1 || (major === 1 && minor <= 34);
  return Object.freeze({
    name,
    upstream,
    introduced,
    newExpressions,
    library,
    ...(always ? { always } : {}),
  });
}

/**
 * base.go's libraries in its order. Its language settings are not libraries and are not listed:
 * homogeneous aggregate literals (1.0, with the literal validators of 1.29), the UTC default time
 * zone, cross-type numeric comparisons (1.28), and the cost options (has() costs nothing).
 */
export const BASE_LIBRARIES: readonly BaseLibrary[] = Object.freeze([
  entry('kubernetes.urls', 'library.URLs', '1.0', urlLibrary),
  entry('kubernetes.regex', 'library.Regex', '1.0', regexLibrary),
  // CEL's standard `matches`, with RE2 semantics in place of the engine's JavaScript RegExp.
  entry('cel.lib.std.matches', 'cel-go standard library (matches)', '1.0', matchesLibrary),
  entry('kubernetes.lists', 'library.Lists', '1.0', listsLibrary),
  entry('kubernetes.authz', 'library.Authz', '1.27', authzLibrary),
  entry('cel.lib.optional', 'cel.OptionalTypes()', '1.28', optionalsLibrary, true),
  entry('kubernetes.quantity', 'library.Quantity', '1.28', quantityLibrary),
  entry(
    'cel.lib.ext.strings',
    `ext.Strings(ext.StringsVersion(${KUBE_STRINGS_VERSION}))`,
    '1.29',
    stringsLibrary(KUBE_STRINGS_VERSION),
  ),
  entry('cel.lib.ext.sets', 'ext.Sets()', '1.29', setsLibrary),
  entry('kubernetes.net.ip', 'library.IP', '1.30', ipLibrary),
  entry('kubernetes.net.cidr', 'library.CIDR', '1.30', cidrLibrary),
  entry('kubernetes.format', 'library.Format', '1.31'),
  entry('kubernetes.authzSelectors', 'library.AuthzSelectors', '1.31', authzSelectorsLibrary),
  entry('cel.lib.ext.comprev2', 'ext.TwoVarComprehensions()', '1.32', comprehensionsLibrary, true),
  entry('kubernetes.Semver', 'library.SemverLib(library.SemverVersion(1))', '1.33', semverLibrary),
  entry('cel.lib.ext.lists', 'ext.Lists(ext.ListsVersion(3))', '1.34'),
]);

/*
 * Still missing (no CelLibrary yet; add each to its entry above as it lands):
 *   kubernetes.format    format.named, format.dns1123Label() and friends, validate
 *                        (values: src/cel/semantics/format.ts)
 *   cel.lib.ext.lists    version 3: slice, flatten, lists.range, distinct, reverse, sort, sortBy
 */

/** The libraries written so far, in base.go's order (language libraries are always installed). */
export const BASE_CEL_LIBRARIES: readonly CelLibrary[] = Object.freeze(
  BASE_LIBRARIES.flatMap((b) => (b.library !== undefined && b.always === undefined ? [b.library] : [])),
);

export interface BaseEnvironmentOptions extends Omit<EnvironmentOptions, 'libraries'> {
  /** Libraries a feature adds beyond the base (none of upstream's features do today). */
  extraLibraries?: readonly CelLibrary[];
}

/** An environment with kube-apiserver 1.35's base libraries and the caller's variables and limits. */
export function baseEnvironment(options: BaseEnvironmentOptions): Environment {
  const { extraLibraries = [], ...rest } = options;
  return createEnvironment({ ...rest, libraries: [...BASE_CEL_LIBRARIES, ...extraLibraries] });
}
