// The /version document and the build it describes. The API level is what clients compare for
// skew, so gitVersion names the upstream minor release whose API this server serves; the commit,
// tree state and date are this build's. A built package reads them from dist/build-info.json
// (written by scripts/build-info.mjs at `npm run build`); run from sources, they come from git
// once per process, and without git they keep upstream's empty defaults.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION_BUILD_TAG } from '../naming/product.ts';

export const API_MAJOR = '1';
export const API_MINOR = '35';

export interface BuildInfo {
  /** 40 hex digits, or '' when unknown. */
  readonly gitCommit: string;
  /** 'clean', 'dirty', or '' when unknown. */
  readonly gitTreeState: string;
  /** RFC 3339 in UTC without fractions, upstream's 1970 default when unknown. */
  readonly buildDate: string;
  /** package.json's version, '' when the package file is not found. */
  readonly packageVersion: string;
}

/** Upstream's values for a binary built without version stamping. */
const UNKNOWN_BUILD: BuildInfo = {
  gitCommit: '',
  gitTreeState: '',
  buildDate: '1970-01-01T00:00:00Z',
  packageVersion: '',
};

/** The nearest folder above this module holding package.json: the package (or checkout) root. */
function packageRoot(from: string): string | undefined {
  let dir = from;
  for (let depth = 0; depth < 6; depth++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

function git(root: string, args: readonly string[]): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    }).trim();
  } catch {
    return undefined;
  }
}

/** Seconds precision, as upstream stamps its builds. */
export function rfc3339Seconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/**
 * The commit, tree state and date of a checkout at `root`, or undefined when git is missing or
 * `root` is not the top of a work tree (a package installed inside someone else's repository
 * must not report that repository's commit).
 */
export function gitBuildInfo(
  root: string,
  now: Date = new Date(),
): Omit<BuildInfo, 'packageVersion'> | undefined {
  const lines = git(root, ['rev-parse', '--show-toplevel', 'HEAD'])?.split('\n');
  if (lines === undefined || lines.length !== 2) return undefined;
  const [top, commit] = lines;
  if (!/^[0-9a-f]{40}$/.test(commit)) return undefined;
  const sameDir = (a: string, b: string) => a.replaceAll('\\', '/') === b.replaceAll('\\', '/');
  if (!sameDir(top, root)) return undefined;
  const status = git(root, ['status', '--porcelain']);
  return {
    gitCommit: commit,
    gitTreeState: status === undefined ? '' : status === '' ? 'clean' : 'dirty',
    buildDate: rfc3339Seconds(now),
  };
}

function stringField(doc: Record<string, unknown>, key: string, fallback: string): string {
  const value = doc[key];
  return typeof value === 'string' ? value : fallback;
}

function readBuildInfo(): BuildInfo {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = packageRoot(here);
  if (root === undefined) return UNKNOWN_BUILD;
  let packageVersion = '';
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    packageVersion = stringField(pkg, 'version', '');
  } catch {
    // An unreadable package file leaves the version unknown; the server still serves.
  }
  // Only code running from dist/ is the build that file describes; sources run by tsx are newer.
  const built = join(root, 'dist', 'build-info.json');
  if (here.startsWith(join(root, 'dist') + sep) && existsSync(built)) {
    try {
      const doc = JSON.parse(readFileSync(built, 'utf8')) as Record<string, unknown>;
      return {
        gitCommit: stringField(doc, 'gitCommit', UNKNOWN_BUILD.gitCommit),
        gitTreeState: stringField(doc, 'gitTreeState', UNKNOWN_BUILD.gitTreeState),
        buildDate: stringField(doc, 'buildDate', UNKNOWN_BUILD.buildDate),
        packageVersion,
      };
    } catch {
      return { ...UNKNOWN_BUILD, packageVersion };
    }
  }
  return { ...(gitBuildInfo(root) ?? UNKNOWN_BUILD), packageVersion };
}

let cached: BuildInfo | undefined;

/** This process's build, worked out on first use and kept (git runs at most once). */
export function buildInfo(): BuildInfo {
  cached ??= readBuildInfo();
  return cached;
}

/**
 * gitVersion: the API level, with this package's release as semver build metadata
 * (`v1.35.0+<tag>.0.1.0`), as distributions mark theirs; clients compare the major and minor
 * fields and semver parsers ignore the metadata. Bare when the package version is unknown.
 */
export function gitVersion(build: BuildInfo): string {
  const base = `v${API_MAJOR}.${API_MINOR}.0`;
  if (build.packageVersion === '') return base;
  const metadata = build.packageVersion.replace(/[^0-9A-Za-z.-]/g, '-');
  return `${base}+${VERSION_BUILD_TAG}.${metadata}`;
}

/** The fields of upstream's version.Info, in its order; the package version rides in gitVersion. */
export function versionDocument(build: BuildInfo = buildInfo()): Record<string, string> {
  return {
    major: API_MAJOR,
    minor: API_MINOR,
    emulationMajor: API_MAJOR,
    emulationMinor: API_MINOR,
    minCompatibilityMajor: API_MAJOR,
    minCompatibilityMinor: String(Number(API_MINOR) - 1),
    gitVersion: gitVersion(build),
    gitCommit: build.gitCommit,
    gitTreeState: build.gitTreeState,
    buildDate: build.buildDate,
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
