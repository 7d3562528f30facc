// The controller manager's and the control plane's command lines: flags over a configuration file,
// the program's own flags, the naming profile's flag names, and the errors a user sees.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigurationError } from '../controllers/manager/config/index.ts';
import { startControllerManager } from '../controllers/manager/controller-manager.ts';
import { CM_FIELD, componentName, namingProfile } from '../naming/index.ts';
import { parseControlPlaneFlags } from './control-plane-flags.ts';
import { parseControllerManagerFlags } from './controller-manager-flags.ts';
import { FlagError } from './flag-parser.ts';

const spec = namingProfile('spec');
const dir = mkdtempSync(join(tmpdir(), 'cm-flags-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe(`${componentName(spec, 'controller-manager')} flags`, () => {
  it('maps flags onto the configuration, and the program flags onto options', () => {
    const o = parseControllerManagerFlags(
      [
        `--${spec.clientConfig}=/tmp/x`,
        '--controllers=*,-serviceaccount-controller',
        '--leader-elect=false',
        '--secure-port=0',
        '--master=https://127.0.0.1:6443',
      ],
      'cm',
    );
    assert.equal(o.config?.Generic.ClientConnection[CM_FIELD.clientConfig], '/tmp/x');
    assert.deepEqual(o.config?.Generic.Controllers, ['*', '-serviceaccount-controller']);
    assert.equal(o.config?.Generic.LeaderElection.leaderElect, false);
    assert.equal(o.securePort, 'none');
    assert.equal(o.master, 'https://127.0.0.1:6443');
    assert.equal(o.useServiceAccountCredentials, false);
  });

  it('reads --feature-gates; the manager refuses a gate it does not know, in upstream words', async () => {
    const o = parseControllerManagerFlags(
      [`--${spec.clientConfig}=/tmp/x`, '--feature-gates=DeploymentReplicaSetTerminatingReplicas=false'],
      'm',
    );
    assert.deepEqual(o.featureGates, { DeploymentReplicaSetTerminatingReplicas: false });
    const bad = parseControllerManagerFlags(
      [`--${spec.clientConfig}=/tmp/x`, '--feature-gates=NoSuchGate=true'],
      'm',
    );
    await assert.rejects(
      startControllerManager(bad),
      (err: Error) =>
        err instanceof ConfigurationError && err.message === 'unrecognized feature gate: NoSuchGate',
    );
    assert.throws(
      () => parseControllerManagerFlags([`--${spec.clientConfig}=/tmp/x`, '--feature-gates=NoValue'], 'm'),
      FlagError,
    );
  });

  it('serves on upstream port 10257 by default, every interface', () => {
    const o = parseControllerManagerFlags([], 'cm');
    assert.equal(o.securePort, 10257);
    assert.equal(o.bindAddress, '0.0.0.0');
    assert.equal(o.config?.Generic.LeaderElection.leaderElect, true);
  });

  it('reads --config, and flags given on the command line win over it', () => {
    const config = file(
      'ok.yaml',
      [
        `apiVersion: platcontrollermanager.config.${spec.groupDomain}/v1alpha1`,
        'kind: PlatControllerManagerConfiguration',
        'Generic:',
        '  Controllers: ["serviceaccount-controller"]',
        '  LeaderElection:',
        '    leaderElect: false',
        '',
      ].join('\n'),
    );
    const o = parseControllerManagerFlags([`--config=${config}`, '--leader-elect=true'], 'cm');
    assert.deepEqual(o.config?.Generic.Controllers, ['serviceaccount-controller']);
    assert.equal(o.config?.Generic.LeaderElection.leaderElect, true);
  });

  it('stops on a file with an unknown field, naming its path', () => {
    const config = file(
      'bad.yaml',
      [
        `apiVersion: platcontrollermanager.config.${spec.groupDomain}/v1alpha1`,
        'kind: PlatControllerManagerConfiguration',
        'Generic:',
        '  Nope: 1',
        '',
      ].join('\n'),
    );
    assert.throws(
      () => parseControllerManagerFlags([`--config=${config}`], 'cm'),
      (err: Error) => err instanceof ConfigurationError && /Generic\.Nope/.test(err.message),
    );
  });

  it("takes upstream's flag names under the upstream profile", () => {
    const o = parseControllerManagerFlags(['--naming=upstream', '--kubeconfig=/tmp/k'], 'cm');
    assert.equal(o.profile?.name, 'upstream');
    assert.throws(() => parseControllerManagerFlags(['--kubeconfig=/tmp/k'], 'cm'), FlagError);
  });
});

describe(`${componentName(spec, 'control-plane')} flags`, () => {
  it("takes the API server's flags and the manager's configuration flags together", () => {
    const o = parseControlPlaneFlags(
      ['--data-dir=/tmp/d', '--secure-port=0', '--controllers=*,bootstrap-signer-controller'],
      'cp',
    );
    assert.equal(o.server.dataDir, '/tmp/d');
    assert.equal(o.server.securePort, 0);
    assert.deepEqual(o.controllerManager?.config?.Generic.Controllers, ['*', 'bootstrap-signer-controller']);
    // No port of the manager's own unless asked; each controller as its own account by default.
    assert.equal(o.controllerManager?.securePort, 'none');
    assert.equal(o.controllerManager?.useServiceAccountCredentials, undefined);
    const off = parseControlPlaneFlags(['--use-service-account-credentials=false'], 'cp');
    assert.equal(off.controllerManager?.useServiceAccountCredentials, false);
  });

  it("refuses the manager's client configuration flag: it connects to this process", () => {
    assert.throws(
      () => parseControlPlaneFlags([`--${spec.clientConfig}=/tmp/x`], 'cp'),
      /is not used here: the controller manager connects to this process's API server/,
    );
  });
});
