// /version: the API level stock clients compare, and this checkout's commit, tree state and date.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { VERSION_BUILD_TAG } from '../naming/product.ts';
import { startTestApiServer, type TestApiServer } from './testing/index.ts';
import {
  API_MAJOR,
  API_MINOR,
  buildInfo,
  gitBuildInfo,
  gitVersion,
  rfc3339Seconds,
  versionDocument,
} from './version.ts';

const FIELDS = [
  'major',
  'minor',
  'emulationMajor',
  'emulationMinor',
  'minCompatibilityMajor',
  'minCompatibilityMinor',
  'gitVersion',
  'gitCommit',
  'gitTreeState',
  'buildDate',
  'goVersion',
  'compiler',
  'platform',
];

describe('/version', () => {
  let api: TestApiServer;
  before(async () => {
    api = await startTestApiServer();
  });
  after(async () => {
    await api.stop();
  });

  it('has exactly upstream version.Info fields, gitVersion the API level with the package release', async () => {
    const r = await api.call({ path: '/version' });
    assert.equal(r.status, 200);
    const doc = r.json();
    assert.deepEqual(Object.keys(doc), FIELDS);
    assert.equal(
      doc.gitVersion,
      `v${API_MAJOR}.${API_MINOR}.0+${VERSION_BUILD_TAG}.${buildInfo().packageVersion}`,
    );
    assert.equal(doc.major, API_MAJOR);
    assert.equal(doc.minor, API_MINOR);
  });

  it("carries this checkout's commit, a tree state and a date in upstream's shape", async () => {
    const doc = (await api.call({ path: '/version' })).json();
    // Tests run from a git checkout, so the commit is known.
    assert.match(String(doc.gitCommit), /^[0-9a-f]{40}$/);
    // HEAD may move while others commit in the same checkout, so check that the commit exists
    // here rather than that it is HEAD now.
    const kind = execFileSync('git', ['cat-file', '-t', String(doc.gitCommit)], { encoding: 'utf8' }).trim();
    assert.equal(kind, 'commit');
    assert.match(String(doc.gitTreeState), /^(clean|dirty)$/);
    assert.match(String(doc.buildDate), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(doc, versionDocument());
  });

  it('carries the package version as gitVersion build metadata only, bare when unknown', async () => {
    const doc = (await api.call({ path: '/version' })).json();
    assert.equal('packageVersion' in doc, false);
    assert.match(buildInfo().packageVersion, /^\d+\.\d+\.\d+/);
    const unknown = { ...buildInfo(), packageVersion: '' };
    assert.equal(gitVersion(unknown), `v${API_MAJOR}.${API_MINOR}.0`);
    assert.equal(
      gitVersion({ ...unknown, packageVersion: '1.2.3-rc.1_x' }),
      `v${API_MAJOR}.${API_MINOR}.0+${VERSION_BUILD_TAG}.1.2.3-rc.1-x`,
    );
  });
});

describe('gitBuildInfo', () => {
  it('is undefined for a folder that is not the top of a work tree', () => {
    const dir = mkdtempSync(join(tmpdir(), 'version-test-'));
    try {
      assert.equal(gitBuildInfo(dir), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('dates to the second in UTC', () => {
    assert.equal(rfc3339Seconds(new Date(Date.UTC(2026, 1, 3, 4, 5, 6, 789))), '2026-02-03T04:05:06Z');
  });

  it('without git, the document keeps upstream empty defaults', () => {
    const doc = versionDocument({
      gitCommit: '',
      gitTreeState: '',
      buildDate: '1970-01-01T00:00:00Z',
      packageVersion: '',
    });
    assert.equal(doc.gitCommit, '');
    assert.equal(doc.gitTreeState, '');
    assert.equal(doc.buildDate, '1970-01-01T00:00:00Z');
  });
});
