// Metric stability classes as kube's components declare them: every help text starts with its
// class (`[ALPHA]`, `[BETA]`, `[STABLE]`), a deprecated metric says from which release in its help
// text (the spec's "(Deprecated from x.y)"; upstream writes "since" and the full version), and one
// whose class's deprecation period has run out is hidden (not registered, so not exposed) unless
// `--show-hidden-metrics-for-version` names the previous minor release.

export type StabilityLevel = 'INTERNAL' | 'ALPHA' | 'BETA' | 'STABLE';

export interface StabilityOpts {
  /** Upstream's class; ALPHA when unset, as upstream defaults it. */
  stability?: StabilityLevel;
  /** `major.minor` (or `major.minor.patch`) of the release that deprecated the metric. */
  deprecatedVersion?: string;
}

interface MinorVersion {
  major: number;
  minor: number;
}

/** Reads `1.35` or `1.35.2` (a leading `v` allowed); undefined when it is neither. */
export function parseMinorVersion(v: string): MinorVersion | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?$/.exec(v.trim());
  if (m === null) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]) };
}

function compare(a: MinorVersion, b: MinorVersion): number {
  return a.major !== b.major ? a.major - b.major : a.minor - b.minor;
}

function formatMinor(v: MinorVersion): string {
  return `${v.major}.${v.minor}`;
}

/** The help text as exposed: class first, then the deprecation note, then the description. */
export function annotatedHelp(help: string, opts: StabilityOpts, currentVersion: string): string {
  const level = opts.stability ?? 'ALPHA';
  const deprecated =
    opts.deprecatedVersion !== undefined && isDeprecated(opts, currentVersion)
      ? `(Deprecated from ${shortVersion(opts.deprecatedVersion)}) `
      : '';
  return `[${level}] ${deprecated}${help}`;
}

function shortVersion(v: string): string {
  const parsed = parseMinorVersion(v);
  return parsed === undefined ? v : formatMinor(parsed);
}

/**
 * The check upstream runs on `--show-hidden-metrics-for-version`: empty, or exactly the minor
 * release before the current one. Returns the error message, or undefined when the value is fine.
 */
export function validateShowHiddenVersion(value: string, currentVersion: string): string | undefined {
  if (value === '') return undefined;
  const current = parseMinorVersion(currentVersion);
  if (current === undefined) return `the current version ${JSON.stringify(currentVersion)} is not a version`;
  const previous = { major: current.major, minor: current.minor - 1 };
  const given = parseMinorVersion(value);
  if (given === undefined || compare(given, previous) !== 0) {
    return `--show-hidden-metrics-for-version must be omitted or have the value '${formatMinor(previous)}'. Only the previous minor version is allowed`;
  }
  return undefined;
}

/** Minor releases a deprecated metric stays visible, by class: the spec's deprecation periods. */
function deprecationPeriod(stability: StabilityLevel | undefined): number {
  if (stability === 'STABLE') return 3;
  if (stability === 'BETA') return 1;
  return 0;
}

/**
 * Whether a deprecated metric is left out of the exposition: once its class's deprecation period
 * (STABLE 3 minor releases, BETA 1, ALPHA none) has run out by the current release, so an ALPHA
 * metric hides in the release that deprecates it. A valid `--show-hidden-metrics-for-version`
 * brings every such metric back, as upstream's does.
 */
export function isHidden(opts: StabilityOpts, currentVersion: string, showHidden: boolean): boolean {
  if (opts.deprecatedVersion === undefined || showHidden) return false;
  const deprecated = parseMinorVersion(opts.deprecatedVersion);
  const current = parseMinorVersion(currentVersion);
  if (deprecated === undefined || current === undefined) return false;
  if (deprecated.major !== current.major) return deprecated.major < current.major;
  return deprecated.minor + deprecationPeriod(opts.stability) <= current.minor;
}

/** Upstream notes a deprecation in the help text once the current release has reached it. */
export function isDeprecated(opts: StabilityOpts, currentVersion: string): boolean {
  if (opts.deprecatedVersion === undefined) return false;
  const deprecated = parseMinorVersion(opts.deprecatedVersion);
  const current = parseMinorVersion(currentVersion);
  return deprecated !== undefined && current !== undefined && compare(deprecated, current) <= 0;
}
