// The exec stanza: upstream's validation messages, the v1beta1 default, command resolution against
// the config file's directory, and the cluster's exec extension under either name.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  clientAuthenticationGroup,
  execClusterExtensionNames,
  namingProfile,
  UPSTREAM_CLIENT_AUTHENTICATION_GROUP,
} from '../../naming/index.ts';
import {
  ExecConfigError,
  execCredentialApiVersions,
  findExecClusterConfig,
  parseExecConfig,
} from './exec-config.ts';

const spec = namingProfile('spec');
const V1 = `${clientAuthenticationGroup(spec)}/v1`;
const V1BETA1 = `${clientAuthenticationGroup(spec)}/v1beta1`;
const DIR = path.resolve('/etc/plat/configs');

function problems(raw: unknown, userName = 'alice'): string[] {
  try {
    parseExecConfig(raw, DIR, { userName });
  } catch (e) {
    assert.ok(e instanceof ExecConfigError);
    return e.problems;
  }
  assert.fail('expected an ExecConfigError');
}

describe('parseExecConfig', () => {
  it('decodes a full v1 stanza', () => {
    const c = parseExecConfig(
      {
        command: 'get-token',
        args: ['--audience', 'x'],
        env: [{ name: 'A', value: '1' }, { name: 'B' }],
        apiVersion: V1,
        installHint: 'install it',
        provideClusterInfo: true,
        interactiveMode: 'Never',
        unknownField: 'ignored as client-go ignores it',
      },
      DIR,
    );
    assert.deepEqual(c, {
      command: 'get-token',
      args: ['--audience', 'x'],
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '' },
      ],
      apiVersion: V1,
      installHint: 'install it',
      provideClusterInfo: true,
      interactiveMode: 'Never',
    });
  });

  it('defaults interactiveMode to IfAvailable in v1beta1 only', () => {
    const c = parseExecConfig({ command: 'p', apiVersion: V1BETA1 }, DIR);
    assert.equal(c.interactiveMode, 'IfAvailable');
    assert.deepEqual(c.args, []);
    assert.deepEqual(c.env, []);
    assert.equal(c.provideClusterInfo, false);
    assert.equal(c.installHint, '');
    assert.deepEqual(problems({ command: 'p', apiVersion: V1 }), [
      'interactiveMode must be specified for alice to use exec authentication plugin',
    ]);
  });

  it('reports every problem in upstream words, aggregated as upstream does', () => {
    const raw = { env: [{ name: '', value: 'x' }], interactiveMode: 'Sometimes' };
    assert.deepEqual(problems(raw), [
      'command must be specified for alice to use exec authentication plugin',
      'apiVersion must be specified for alice to use exec authentication plugin',
      'env variable name must be specified for alice to use exec authentication plugin',
      'invalid interactiveMode for alice: "Sometimes"',
    ]);
    assert.throws(
      () => parseExecConfig(raw, DIR, { userName: 'alice' }),
      (e: Error) =>
        e.message.startsWith('[command must be specified for alice') && e.message.endsWith('"Sometimes"]'),
    );
    assert.throws(() => parseExecConfig({ command: 'p', apiVersion: V1 }, DIR, { userName: 'bob' }), {
      message: 'interactiveMode must be specified for bob to use exec authentication plugin',
    });
  });

  it('accepts v1 and v1beta1 of the profile group and of upstream group, nothing else', () => {
    const up = UPSTREAM_CLIENT_AUTHENTICATION_GROUP;
    assert.deepEqual(execCredentialApiVersions(spec), [V1, V1BETA1, `${up}/v1`, `${up}/v1beta1`]);
    assert.deepEqual(execCredentialApiVersions(namingProfile('upstream')), [`${up}/v1`, `${up}/v1beta1`]);
    assert.equal(
      parseExecConfig({ command: 'p', apiVersion: `${up}/v1beta1` }, DIR).interactiveMode,
      'IfAvailable',
    );
    assert.deepEqual(problems({ command: 'p', apiVersion: `${up}/v1alpha1`, interactiveMode: 'Never' }), [
      `exec plugin: invalid apiVersion "${up}/v1alpha1"`,
    ]);
    assert.deepEqual(problems({ command: 'p', apiVersion: 'v1', interactiveMode: 'Never' }), [
      'exec plugin: invalid apiVersion "v1"',
    ]);
  });

  it('rejects wrong types with the field path', () => {
    assert.deepEqual(problems('command'), ['exec: must be an object, got string']);
    const got = problems({
      command: 3,
      args: 'a b',
      env: [{ name: 'A', value: 1 }, 'B=2'],
      apiVersion: V1,
      interactiveMode: 'Never',
      provideClusterInfo: 'yes',
    });
    assert.deepEqual(got, [
      'exec.command: must be a string, got number',
      'exec.args: must be a list of strings, got string',
      'exec.env[0].value: must be a string, got number',
      'exec.env[1]: must be an object with name and value, got string',
      'exec.provideClusterInfo: must be a boolean, got string',
      'command must be specified for alice to use exec authentication plugin',
    ]);
    assert.throws(
      () => parseExecConfig({ args: [1] }, DIR, { fieldPath: 'users[2].user.exec' }),
      (e: ExecConfigError) => e.problems[0] === 'users[2].user.exec.args[0]: must be a string, got number',
    );
  });

  it('resolves a relative command path against the file directory; bare names are left for PATH', () => {
    const at = (command: string) => parseExecConfig({ command, apiVersion: V1BETA1 }, DIR).command;
    assert.equal(at('./bin/plugin'), path.join(DIR, 'bin', 'plugin'));
    assert.equal(at('../plugins/p'), path.join(DIR, '..', 'plugins', 'p'));
    assert.equal(at('bin/plugin'), path.join(DIR, 'bin', 'plugin'));
    assert.equal(at('/usr/local//bin/../bin/p'), '/usr/local/bin/p');
    assert.equal(at('aws-token'), 'aws-token');
  });
});

describe('findExecClusterConfig', () => {
  const [own, upstream] = execClusterExtensionNames(spec);
  it("finds the profile's extension first, then upstream's", () => {
    assert.equal(findExecClusterConfig(undefined), undefined);
    assert.equal(findExecClusterConfig([{ name: 'other', extension: 1 }]), undefined);
    assert.deepEqual(findExecClusterConfig([{ name: upstream, extension: { audience: 'u' } }]), {
      audience: 'u',
    });
    assert.deepEqual(
      findExecClusterConfig([
        { name: upstream, extension: { audience: 'u' } },
        { name: own, extension: { audience: 'o' } },
      ]),
      { audience: 'o' },
    );
    assert.deepEqual(execClusterExtensionNames(namingProfile('upstream')), [upstream]);
  });
});
