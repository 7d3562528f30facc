// `--version` on every program: the parser's handling of the flag, the text printed, and the
// programs themselves printing it and exiting 0 before starting anything.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { productName, VERSION_BUILD_TAG } from '../naming/product.ts';
import { componentName, namingProfile } from '../naming/profile.ts';
import { API_MAJOR, API_MINOR, type BuildInfo, buildInfo, gitVersion } from '../server/version.ts';
import { parseApiserverFlags } from './apiserver-flags.ts';
import { parseControlPlaneFlags } from './control-plane-flags.ts';
import { parseControllerManagerFlags } from './controller-manager-flags.ts';
import { FlagError, HelpRequested, parseFlags, usage, VersionRequested } from './flag-parser.ts';
import { namingForVersion, rawVersionText, startupVersionLine, versionLine } from './version-output.ts';

/** The fixed build's gitVersion: the API level with the package release as build metadata. */
const API_VERSION = `v${API_MAJOR}.${API_MINOR}.0+${VERSION_BUILD_TAG}.1.2.3`;
const SPEC = namingProfile('spec');
const UPSTREAM = namingProfile('upstream');
const BUILD: BuildInfo = {
  gitCommit: 'a'.repeat(40),
  gitTreeState: 'dirty',
  buildDate: '2026-02-03T04:05:06Z',
  packageVersion: '1.2.3',
};

function versionAsked(fn: () => unknown): VersionRequested {
  try {
    fn();
  } catch (err) {
    if (err instanceof VersionRequested) return err;
    throw err;
  }
  assert.fail('expected VersionRequested');
}

describe('the --version flag', () => {
  it('alone, =true or =raw asks for the version; =false is as if absent', () => {
    assert.equal(versionAsked(() => parseFlags(['--version'], 'cmd', [])).raw, false);
    assert.equal(versionAsked(() => parseFlags(['--version=true'], 'cmd', [])).raw, false);
    assert.equal(versionAsked(() => parseFlags(['--version=raw'], 'cmd', [])).raw, true);
    assert.deepEqual(parseFlags(['--version=false'], 'cmd', []), {});
    // The last occurrence wins, as pflag's repeated Set does.
    assert.deepEqual(parseFlags(['--version', '--version=false'], 'cmd', []), {});
  });

  it('never takes the next word as its value', () => {
    assert.throws(
      () => parseFlags(['--version', 'raw'], 'cmd', []),
      (err: Error) =>
        err instanceof FlagError && /does not take any arguments, got \["raw"\]/.test(err.message),
    );
  });

  it('refuses other values with pflag\'s "invalid argument" message', () => {
    assert.throws(
      () => parseFlags(['--version=maybe'], 'cmd', []),
      (err: Error) =>
        err instanceof FlagError &&
        err.message === 'invalid argument "maybe" for "--version" flag: parse error',
    );
    assert.throws(
      () => parseFlags(['--version=v1.2.3'], 'cmd', []),
      (err: Error) =>
        err instanceof FlagError && /"--version" flag: setting the reported version/.test(err.message),
    );
  });

  it('bad flags elsewhere on the line still fail, and --help still wins', () => {
    assert.throws(() => parseFlags(['--version', '--nope'], 'cmd', []), FlagError);
    assert.throws(() => parseFlags(['--version', '--help'], 'cmd', []), HelpRequested);
  });

  it('is listed in usage', () => {
    assert.match(usage('cmd', 'Does things.', []), /--version\s+--version, --version=raw print version/);
  });

  it("reaches every program's flag parser", () => {
    const name = componentName(SPEC, 'x');
    assert.equal(versionAsked(() => parseApiserverFlags(['--version'], name)).raw, false);
    assert.equal(versionAsked(() => parseControllerManagerFlags(['--version=raw'], name)).raw, true);
    assert.equal(versionAsked(() => parseControlPlaneFlags(['--version'], name)).raw, false);
  });
});

describe('the version text', () => {
  it('is the product word and the API version', () => {
    assert.equal(versionLine(SPEC, BUILD), `${productName(SPEC)} ${API_VERSION}\n`);
    assert.equal(versionLine(UPSTREAM, BUILD), `${productName(UPSTREAM)} ${API_VERSION}\n`);
    assert.notEqual(productName(SPEC), productName(UPSTREAM));
  });

  it('raw is every version.Info field in Go %#v shape, then the package version', () => {
    const text = rawVersionText(BUILD);
    assert.match(text, /^version\.Info\{Major:"1", Minor:"35", EmulationMajor:"1", EmulationMinor:"35", /);
    assert.ok(
      text.includes(`GitVersion:"${API_VERSION}", GitCommit:"${'a'.repeat(40)}", GitTreeState:"dirty"`),
    );
    assert.ok(text.includes('BuildDate:"2026-02-03T04:05:06Z", GoVersion:"node'));
    assert.ok(text.endsWith(', PackageVersion:"1.2.3"}\n'));
  });

  it('the start-up line names the package version and the commit', () => {
    const line = startupVersionLine('cmd', BUILD);
    assert.ok(line.includes(API_VERSION) && line.includes('package 1.2.3') && line.includes('a'.repeat(40)));
  });

  it('the product word follows --naming', () => {
    assert.equal(namingForVersion(['--naming=upstream']).name, 'upstream');
    assert.equal(namingForVersion(['--naming', 'upstream']).name, 'upstream');
    assert.equal(namingForVersion([]).name, 'spec');
  });
});

describe('the programs', () => {
  const programs = ['apiserver', 'controller-manager', 'control-plane'];
  for (const program of programs) {
    const file = fileURLToPath(new URL(`./${componentName(SPEC, program)}.ts`, import.meta.url));
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', file, ...args], { encoding: 'utf8', timeout: 60_000 });

    it(`${program}: --version prints the product and API version and exits 0`, () => {
      const out = run('--version');
      assert.equal(out.status, 0, out.stderr);
      assert.equal(out.stdout, `${productName(SPEC)} ${gitVersion(buildInfo())}\n`);
    });

    it(`${program}: --version=raw prints the build with the package version and exits 0`, () => {
      const out = run('--version=raw', '--naming=upstream');
      assert.equal(out.status, 0, out.stderr);
      assert.match(out.stdout, /^version\.Info\{Major:"1", /);
      assert.match(out.stdout, /GitCommit:"[0-9a-f]{40}", GitTreeState:"(clean|dirty)"/);
      assert.match(out.stdout, /PackageVersion:"\d+\.\d+\.\d+[^"]*"\}\n$/);
    });
  }

  it('a bad --version value exits 2', () => {
    const file = fileURLToPath(new URL(`./${componentName(SPEC, 'apiserver')}.ts`, import.meta.url));
    const out = spawnSync(process.execPath, ['--import', 'tsx', file, '--version=maybe'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(out.status, 2);
    assert.match(out.stderr, /invalid argument "maybe" for "--version" flag/);
  });
});
