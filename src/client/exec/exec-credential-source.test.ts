// The exec credential source against a real plugin process (a small node script): what the plugin
// is given, what it may answer, caching and refresh, and every way a plugin can fail.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, it } from 'node:test';
import {
  clientAuthenticationGroup,
  namingProfile,
  UPSTREAM_CLIENT_AUTHENTICATION_GROUP,
  UPSTREAM_EXEC_INFO_ENV,
} from '../../naming/index.ts';
import { createCa, createLeaf } from '../../server/pki/generate.ts';
import { type ExecConfig, parseExecConfig } from './exec-config.ts';
import { ExecCredentialSource, type ExecCredentialSourceOptions } from './exec-credential-source.ts';
import { TestPlugin } from './exec-testing.ts';

const GROUP = clientAuthenticationGroup(namingProfile('spec'));
const V1 = `${GROUP}/v1`;
const V1BETA1 = `${GROUP}/v1beta1`;
const UP_V1BETA1 = `${UPSTREAM_CLIENT_AUTHENTICATION_GROUP}/v1beta1`;

const plugins: TestPlugin[] = [];
after(() => {
  for (const p of plugins) p.remove();
});

function newPlugin(): TestPlugin {
  const p = new TestPlugin();
  plugins.push(p);
  return p;
}

const answer = (status: unknown, apiVersion = V1) => ({ kind: 'ExecCredential', apiVersion, status });

function config(p: TestPlugin, extra: Partial<ExecConfig> = {}, report: string[] = []): ExecConfig {
  return {
    command: p.command,
    args: [],
    env: p.env(report),
    apiVersion: V1,
    installHint: '',
    provideClusterInfo: false,
    interactiveMode: 'Never',
    ...extra,
  };
}

class FakeClock {
  t = Date.parse('2030-01-01T00:00:00Z');
  now = () => this.t;
}

function source(cfg: ExecConfig, opts: ExecCredentialSourceOptions = {}) {
  return new ExecCredentialSource(cfg, { stdinIsTerminal: false, stderr: new PassThrough(), ...opts });
}

describe('ExecCredentialSource: what the plugin gets', () => {
  it('gets the ExecCredential in the profile variable, the config env over the process env, and its args', async () => {
    const p = newPlugin().prints(answer({ token: 't1' }));
    const cfg = config(p, {
      args: ['--audience', 'a b'],
      env: [...p.env(['FROM_PROCESS', 'SHADOWED']), { name: 'SHADOWED', value: 'config' }],
    });
    const s = source(cfg, { environ: () => ({ ...process.env, FROM_PROCESS: 'yes', SHADOWED: 'process' }) });
    assert.deepEqual(await s.current(), { token: 't1' });
    const [call] = p.calls();
    assert.deepEqual(call?.args, ['--audience', 'a b']);
    assert.deepEqual(call?.info, { kind: 'ExecCredential', apiVersion: V1, spec: { interactive: false } });
    assert.equal(call?.upstreamInfo, undefined);
    assert.deepEqual(call?.reported, { FROM_PROCESS: 'yes', SHADOWED: 'config' });
  });

  it('gets the cluster only with provideClusterInfo', async () => {
    const p = newPlugin().prints(answer({ token: 't' }));
    const cluster = {
      server: 'https://127.0.0.1:6443',
      certificateAuthorityData: '-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n',
      tlsServerName: 'api',
      config: { audience: 'snorlax' },
    };
    await source(config(p, { provideClusterInfo: true }), { cluster }).current();
    await source(config(p), { cluster }).current();
    const [withInfo, without] = p.calls();
    assert.deepEqual(withInfo?.info, {
      kind: 'ExecCredential',
      apiVersion: V1,
      spec: {
        cluster: {
          server: 'https://127.0.0.1:6443',
          'tls-server-name': 'api',
          'certificate-authority-data': Buffer.from(cluster.certificateAuthorityData).toString('base64'),
          config: { audience: 'snorlax' },
        },
        interactive: false,
      },
    });
    assert.deepEqual(without?.info, { kind: 'ExecCredential', apiVersion: V1, spec: { interactive: false } });
  });

  it("speaks upstream's group to a stock plugin, in both variables, and takes either group back", async () => {
    const p = newPlugin().prints(answer({ token: 'stock' }, UP_V1BETA1));
    const s = source(config(p, { apiVersion: UP_V1BETA1, interactiveMode: 'IfAvailable' }));
    assert.deepEqual(await s.current(), { token: 'stock' });
    const [call] = p.calls();
    const want = { kind: 'ExecCredential', apiVersion: UP_V1BETA1, spec: { interactive: false } };
    assert.deepEqual(call?.info, want);
    assert.deepEqual(JSON.parse(call?.upstreamInfo ?? 'null'), want);

    // The same version under the other name of the group is the same type.
    p.prints(answer({ token: 'own' }, V1BETA1));
    assert.deepEqual(await source(config(p, { apiVersion: UP_V1BETA1 })).current(), { token: 'own' });
    p.prints(answer({ token: 'up' }, `${UPSTREAM_CLIENT_AUTHENTICATION_GROUP}/v1`));
    assert.deepEqual(await source(config(p)).current(), { token: 'up' });
  });

  it('does not pass on exec-info variables this process inherited', async () => {
    const p = newPlugin().prints(answer({ token: 't' }));
    await source(config(p), {
      environ: () => ({ ...process.env, [UPSTREAM_EXEC_INFO_ENV]: 'stale' }),
    }).current();
    assert.equal(p.calls()[0]?.upstreamInfo, undefined);
  });

  it('follows interactiveMode: Never, IfAvailable, and Always only with a usable terminal', async () => {
    const p = newPlugin().prints(answer({ token: 't' }));
    await source(config(p, { interactiveMode: 'Never' }), { stdinIsTerminal: true }).current();
    await source(config(p, { interactiveMode: 'IfAvailable' }), { stdinIsTerminal: false }).current();
    await source(config(p, { interactiveMode: 'IfAvailable' }), {
      stdinIsTerminal: true,
      stdinUnavailable: true,
    }).current();
    await source(config(p, { interactiveMode: 'IfAvailable' }), { stdinIsTerminal: true }).current();
    await source(config(p, { interactiveMode: 'Always' }), { stdinIsTerminal: true }).current();
    const interactive = p.calls().map((c) => (c.info as { spec: { interactive: boolean } }).spec.interactive);
    assert.deepEqual(interactive, [false, false, false, true, true]);

    await assert.rejects(
      source(config(p, { interactiveMode: 'Always' }), { stdinIsTerminal: false }).current(),
      {
        message: `exec: executable ${p.command}: exec plugin cannot support interactive mode: standard input is not a terminal`,
      },
    );
    await assert.rejects(
      source(config(p, { interactiveMode: 'Always' }), {
        stdinIsTerminal: true,
        stdinUnavailable: true,
        stdinUnavailableMessage: 'used by the program',
      }).current(),
      /exec plugin cannot support interactive mode: standard input is unavailable: used by the program$/,
    );
    assert.equal(p.calls().length, 5, 'the plugin is not run when its mode cannot be honoured');
  });

  it("passes the plugin's standard error through", async () => {
    const p = newPlugin()
      .prints(answer({ token: 't' }))
      .writesStderr('opening browser\n');
    const stderr = new PassThrough();
    const seen: Buffer[] = [];
    stderr.on('data', (c: Buffer) => seen.push(c));
    await source(config(p), { stderr }).current();
    assert.equal(Buffer.concat(seen).toString(), 'opening browser\n');
  });
});

describe('ExecCredentialSource: credentials and their lifetime', () => {
  it('returns a certificate and key (with intermediates)', async () => {
    const ca = await createCa('exec-test-ca', 1);
    const leaf = await createLeaf(ca, { commonName: 'alice', usage: 'client', validDays: 1 });
    const chain = leaf.certPem + ca.certPem;
    const p = newPlugin().prints(answer({ clientCertificateData: chain, clientKeyData: leaf.keyPem }));
    assert.deepEqual(await source(config(p)).current(), {
      clientCertificatePem: chain,
      clientKeyPem: leaf.keyPem,
    });

    // A token beside them is kept too: client-go sends both.
    p.prints(answer({ token: 't', clientCertificateData: chain, clientKeyData: leaf.keyPem }));
    assert.deepEqual(await source(config(p)).current(), {
      clientCertificatePem: chain,
      clientKeyPem: leaf.keyPem,
      token: 't',
    });

    p.prints(answer({ clientCertificateData: leaf.certPem, clientKeyData: ca.keyPem }));
    await assert.rejects(
      source(config(p)).current(),
      /failed parsing client key\/certificate: tls: private key does not match public key/,
    );
    p.prints(answer({ clientCertificateData: 'not pem', clientKeyData: leaf.keyPem }));
    await assert.rejects(
      source(config(p)).current(),
      /tls: failed to find any PEM data in certificate input/,
    );
    p.prints(answer({ clientCertificateData: leaf.keyPem, clientKeyData: leaf.certPem }));
    await assert.rejects(source(config(p)).current(), /PEM inputs may have been switched/);
  });

  it('caches until expirationTimestamp passes (fake clock)', async () => {
    const clock = new FakeClock();
    const expiry = new Date(clock.t + 60_000).toISOString();
    const p = newPlugin().prints(answer({ token: 'first', expirationTimestamp: expiry }));
    const s = source(config(p), { now: clock.now });
    assert.deepEqual(await s.current(), { token: 'first' });
    assert.equal(s.expiresAt, clock.t + 60_000);
    p.prints(answer({ token: 'second' }));
    clock.t += 60_000;
    assert.deepEqual(await s.current(), { token: 'first' }, 'still valid at the expiry instant');
    assert.equal(p.calls().length, 1);
    clock.t += 1;
    assert.deepEqual(await s.current(), { token: 'second' });
    assert.equal(p.calls().length, 2);
    assert.equal(s.expiresAt, undefined);
    clock.t += 365 * 24 * 3600_000;
    assert.deepEqual(await s.current(), { token: 'second' }, 'without an expiry, kept until a 401');
    assert.equal(p.calls().length, 2);
  });

  it('runs again after a 401 with the current credentials, not after one with stale ones', async () => {
    const p = newPlugin().prints(answer({ token: 'one' }));
    const s = source(config(p));
    const one = await s.current();
    p.prints(answer({ token: 'two' }));
    s.unauthorized(one);
    const two = await s.current();
    assert.deepEqual(two, { token: 'two' });
    s.unauthorized(one);
    assert.equal(await s.current(), two);
    assert.equal(p.calls().length, 2);
    s.unauthorized({ token: 'two' });
    p.prints(answer({ token: 'two' }));
    assert.equal(await s.current(), two, 'an unchanged answer keeps its identity');
    assert.equal(p.calls().length, 3);
  });

  it('lets concurrent callers share one run', async () => {
    const p = newPlugin().prints(answer({ token: 'shared' }));
    const s = source(config(p));
    const all = await Promise.all(Array.from({ length: 8 }, () => s.current()));
    assert.ok(all.every((c) => c.token === 'shared'));
    assert.equal(p.calls().length, 1);
  });

  it('runs a plugin named relative to the config file, and one found on PATH', async () => {
    const p = newPlugin().prints(answer({ token: 'rel' }, V1BETA1));
    const configDir = path.join(p.dir, 'conf');
    const cfg = parseExecConfig({ command: '../bin/plugin', apiVersion: V1BETA1, env: p.env() }, configDir);
    assert.equal(cfg.command, p.command);
    assert.deepEqual(await source(cfg).current(), { token: 'rel' });

    const bare = parseExecConfig({ command: 'plugin', apiVersion: V1BETA1, env: p.env() }, configDir);
    assert.equal(bare.command, 'plugin');
    const environ = () => ({
      ...process.env,
      PATH: `${path.dirname(p.command)}${path.delimiter}${process.env.PATH ?? ''}`,
    });
    assert.deepEqual(await source(bare, { environ }).current(), { token: 'rel' });
  });

  it('takes a YAML answer, as client-go does', async () => {
    const p = newPlugin().prints(`kind: ExecCredential\napiVersion: ${V1}\nstatus:\n  token: from-yaml\n`);
    assert.deepEqual(await source(config(p)).current(), { token: 'from-yaml' });
  });
});

describe('ExecCredentialSource: failures name the plugin and never crash', () => {
  const bad: [string, unknown, RegExp][] = [
    ['not JSON', 'hello world', /decoding stdout: couldn't get version\/kind/],
    ['broken JSON', '{"kind": ', /decoding stdout: .*JSON/],
    ['nothing', '', /decoding stdout: Object 'Kind' is missing/],
    [
      'no apiVersion',
      { kind: 'ExecCredential', status: { token: 't' } },
      /decoding stdout: Object 'apiVersion' is missing/,
    ],
    [
      'wrong kind',
      { kind: 'Secret', apiVersion: V1, status: { token: 't' } },
      /no kind "Secret" is registered/,
    ],
    [
      'wrong apiVersion',
      answer({ token: 't' }, V1BETA1),
      new RegExp(`exec plugin is configured to use API version ${V1}, plugin returned version ${V1BETA1}`),
    ],
    ['no status', { kind: 'ExecCredential', apiVersion: V1 }, /exec plugin didn't return a status field/],
    ['empty status', answer({}), /exec plugin didn't return a token or cert\/key pair/],
    [
      'certificate without key',
      answer({ clientCertificateData: 'x' }),
      /exec plugin returned only certificate or key, not both/,
    ],
    [
      'key without certificate',
      answer({ clientKeyData: 'x' }),
      /exec plugin returned only certificate or key, not both/,
    ],
    [
      'a token beside a certificate that is not PEM',
      answer({ token: 't', clientCertificateData: 'c', clientKeyData: 'k' }),
      /tls: failed to find any PEM data in certificate input/,
    ],
    ['token of a wrong type', answer({ token: 5 }), /status\.token: must be a string, got number/],
    [
      'bad expiry',
      answer({ token: 't', expirationTimestamp: 'tomorrow' }),
      /"tomorrow" is not an RFC 3339 time/,
    ],
  ];
  for (const [name, out, want] of bad) {
    it(`rejects an answer with ${name}`, async () => {
      const p = newPlugin().prints(out);
      await assert.rejects(source(config(p)).current(), (e: Error) => {
        assert.match(e.message, want);
        assert.ok(e.message.startsWith(`exec: executable ${p.command}: `), e.message);
        return true;
      });
    });
  }

  it('reports a non-zero exit with its code, and runs again on the next call', async () => {
    const p = newPlugin()
      .prints(answer({ token: 't' }))
      .exits(73);
    const s = source(config(p));
    await assert.rejects(s.current(), { message: `exec: executable ${p.command} failed with exit code 73` });
    p.exits(0);
    assert.deepEqual(await s.current(), { token: 't' });
  });

  it('stops a plugin that hangs past the timeout', async () => {
    const p = newPlugin().hangs();
    const s = source(config(p), { timeoutMs: 300 });
    await assert.rejects(s.current(), {
      message: `exec: executable ${p.command} did not finish within 0.3s and was stopped`,
    });
  });

  it('names a missing command with the install hint, at most ten times an hour', async () => {
    const clock = new FakeClock();
    const cfg = parseExecConfig(
      { command: 'no-such-plugin-here', apiVersion: V1BETA1, installHint: 'brew install no-such-plugin' },
      '/',
    );
    const s = source(cfg, { now: clock.now });
    const messages: string[] = [];
    for (let i = 0; i < 11; i++)
      messages.push(
        await s.current().then(
          () => '',
          (e: Error) => e.message,
        ),
      );
    assert.ok(messages.every((m) => m.startsWith('exec: executable no-such-plugin-here not found')));
    assert.equal(messages.filter((m) => m.endsWith('\n\nbrew install no-such-plugin')).length, 10);
    clock.t += 3600_000;
    assert.match(
      await s.current().then(
        () => '',
        (e: Error) => e.message,
      ),
      /brew install no-such-plugin$/,
    );

    const missingPath = parseExecConfig(
      { command: './missing', apiVersion: V1BETA1, installHint: 'get it' },
      '/nowhere',
    );
    await assert.rejects(source(missingPath).current(), (e: Error) =>
      /^exec: executable \/nowhere\/missing not found[\s\S]*get it$/.test(e.message),
    );
  });
});
