// What `--version` prints, and the start-up line naming the build. `--version` prints the product
// word and the API version (`<Product> v1.35.0`, upstream's verflag shape); `--version=raw` prints
// every field of the version document in Go's `%#v` shape, as upstream does, plus the package's
// own version, which /version leaves out because stock clients do not expect it.

import { productName } from '../naming/product.ts';
import { type NamingProfile, namingProfile } from '../naming/profile.ts';
import { type BuildInfo, buildInfo, versionDocument } from '../server/version.ts';

/**
 * The profile `--naming` picks, for the product word only: the command line already parsed, so
 * its value is valid. Kept here so the API server's program need not load the controller
 * manager's flag table to print its version.
 */
export function namingForVersion(argv: readonly string[]): NamingProfile {
  let name = 'spec';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--naming=')) name = argv[i].slice('--naming='.length);
    else if (argv[i] === '--naming' && i + 1 < argv.length) name = argv[i + 1];
  }
  return namingProfile(name === 'upstream' ? 'upstream' : 'spec');
}

/** `<Product> v1.35.0`. */
export function versionLine(profile: NamingProfile, build: BuildInfo = buildInfo()): string {
  return `${productName(profile)} ${versionDocument(build).gitVersion}\n`;
}

/** Go field names are the JSON names with the first letter upper-cased. */
function goField(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** `version.Info{Major:"1", Minor:"35", ..., PackageVersion:"0.1.0"}`. */
export function rawVersionText(build: BuildInfo = buildInfo()): string {
  const fields = { ...versionDocument(build), packageVersion: build.packageVersion };
  const parts = Object.entries(fields).map(([k, v]) => `${goField(k)}:${JSON.stringify(v)}`);
  return `version.Info{${parts.join(', ')}}\n`;
}

/** The text `--version` or `--version=raw` asks for. */
export function versionOutput(raw: boolean, profile: NamingProfile, build: BuildInfo = buildInfo()): string {
  return raw ? rawVersionText(build) : versionLine(profile, build);
}

/** One line for the log at start: which build is running. */
export function startupVersionLine(name: string, build: BuildInfo = buildInfo()): string {
  const doc = versionDocument(build);
  const pkg = build.packageVersion === '' ? 'unknown' : build.packageVersion;
  const commit = build.gitCommit === '' ? 'unknown' : build.gitCommit;
  const tree = build.gitTreeState === '' ? 'unknown' : build.gitTreeState;
  return `${name} version ${doc.gitVersion} package ${pkg} commit ${commit} tree ${tree} built ${doc.buildDate}\n`;
}
