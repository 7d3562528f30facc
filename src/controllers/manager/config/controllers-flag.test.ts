import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namingProfile } from '../../../naming/index.ts';
import {
  canonicalControllerList,
  controllerAliases,
  controllersDisabledByDefault,
  isControllerEnabled,
  knownControllerNames,
  knownControllers,
} from './controllers-flag.ts';

const off = controllersDisabledByDefault();

describe('--controllers', () => {
  it("knows kube-controller-manager 1.35's controllers and their aliases", () => {
    const names = knownControllerNames();
    assert.equal(names.length, 50);
    for (const n of [
      'garbage-collector-controller',
      'namespace-controller',
      'serviceaccount-token-controller',
    ]) {
      assert.ok(names.includes(n), n);
    }
    const aliases = controllerAliases();
    assert.equal(aliases.get('garbagecollector'), 'garbage-collector-controller');
    assert.equal(aliases.get('tokencleaner'), 'token-cleaner-controller');
    assert.equal(aliases.get('root-ca-cert-publisher'), 'root-ca-certificate-publisher-controller');
    assert.equal(
      aliases.get('legacy-service-account-token-cleaner'),
      'legacy-serviceaccount-token-cleaner-controller',
    );
    // Every name follows upstream's rule: lower case words joined by '-', ending in -controller.
    for (const n of names) assert.match(n, /^[a-z]([-a-z]*[a-z])?-controller$/);
  });

  it('names the trust bundle publisher in the profile and accepts the upstream name', () => {
    const spec = namingProfile('spec');
    const upstream = namingProfile('upstream');
    const own = `${spec.componentPrefix}apiserver-serving-clustertrustbundle-publisher-controller`;
    const theirs = `${upstream.componentPrefix}apiserver-serving-clustertrustbundle-publisher-controller`;
    assert.ok(knownControllerNames(spec).includes(own));
    assert.equal(controllerAliases(spec).get(theirs), own);
    assert.ok(knownControllerNames(upstream).includes(theirs));
    assert.equal(knownControllers(upstream).find((c) => c.name === theirs)?.aliases.length, 0);
  });

  it('leaves bootstrap-signer, token-cleaner and selinux-warning off by default', () => {
    assert.deepEqual(off, [
      'bootstrap-signer-controller',
      'selinux-warning-controller',
      'token-cleaner-controller',
    ]);
    assert.equal(isControllerEnabled('bootstrap-signer-controller', ['*'], off), false);
    assert.equal(isControllerEnabled('bootstrap-signer-controller', ['*', 'bootstrapsigner'], off), true);
    assert.equal(isControllerEnabled('token-cleaner-controller', ['tokencleaner'], off), true);
  });

  it("'*' enables the default ones; a name enables; '-name' disables", () => {
    assert.equal(isControllerEnabled('job-controller', ['*'], off), true);
    assert.equal(isControllerEnabled('job-controller', ['deployment'], off), false);
    assert.equal(isControllerEnabled('job-controller', ['job'], off), true);
    assert.equal(isControllerEnabled('job-controller', ['*', '-job'], off), false);
    assert.equal(isControllerEnabled('job', ['*', '-job-controller'], off), false);
    assert.equal(isControllerEnabled('job-controller', [], off), false);
  });

  it('lets the first item naming a controller win', () => {
    assert.equal(isControllerEnabled('job-controller', ['-job', 'job'], off), false);
    assert.equal(isControllerEnabled('job-controller', ['job', '-job-controller'], off), true);
    assert.equal(isControllerEnabled('job-controller', ['-job', '*'], off), false);
    assert.equal(
      isControllerEnabled('bootstrap-signer-controller', ['bootstrapsigner', '*'], new Set(off)),
      true,
    );
  });

  it('rewrites aliases to canonical names as upstream does', () => {
    assert.deepEqual(
      canonicalControllerList(
        ['deployment', '-job', '-cronjob-controller', 'podgc', '*'],
        controllerAliases(),
      ),
      [
        'deployment-controller',
        '-job-controller',
        '-cronjob-controller',
        'pod-garbage-collector-controller',
        '*',
      ],
    );
  });
});
