// Reading client configuration files: every kind of user, relative paths anchored at the file, the
// chosen context and its overrides, client-go's checks, and errors that name the file and the field.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { clientAuthenticationGroup, inClusterNames, namingProfile } from '../naming/index.ts';
import { restOptionsFromPlatconfig } from './config.ts';
import { StaticCredentialSource } from './credentials.ts';
import { ExecCredentialSource } from './exec/index.ts';
import { inClusterConfig, NotInClusterError } from './in-cluster.ts';
import { PlatconfigError, parsePlatconfig, readPlatconfig } from './platconfig.ts';
import { selectContext } from './platconfig-context.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const profile = namingProfile('spec');
const GROUP = clientAuthenticationGroup(profile);
const { hostEnv: HOST, portEnv: PORT } = inClusterNames(profile);

describe('platconfig', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'client-platconfig-'));
    mkdirSync(join(dir, 'certs'));
    writeFileSync(join(dir, 'certs', 'ca.crt'), 'CA FILE');
    writeFileSync(join(dir, 'certs', 'user.crt'), 'CERT FILE');
    writeFileSync(join(dir, 'certs', 'user.key'), 'KEY FILE');
    writeFileSync(join(dir, 'token'), '  file-token\n');
    file = join(dir, 'config');
    writeFileSync(
      file,
      `apiVersion: v1
kind: Config
clusters:
  - name: files
    cluster:
      server: https://files.example:6443
      certificate-authority: certs/ca.crt
      tls-server-name: api.internal
  - name: inline
    cluster:
      server: https://inline.example
      certificate-authority-data: ${b64('CA DATA')}
  - name: insecure
    cluster:
      server: https://insecure.example
      insecure-skip-tls-verify: true
      proxy-url: http://proxy.example:3128
users:
  - name: cert-files
    user:
      client-certificate: certs/user.crt
      client-key: ./certs/user.key
  - name: cert-data
    user:
      client-certificate-data: ${b64('CERT DATA')}
      client-key-data: ${b64('KEY DATA')}
  - name: token
    user:
      token: static-token
  - name: token-file
    user:
      tokenFile: token
  - name: plugin
    user:
      exec:
        apiVersion: ${GROUP}/v1
        command: ./bin/plugin
        args: [get-token]
        interactiveMode: Never
  - name: impersonating
    user:
      token: t
      as: bob
      as-groups: [devs]
      as-user-extra: { scopes: [read] }
contexts:
  - name: files
    context: { cluster: files, user: cert-files, namespace: team-a }
  - name: inline
    context: { cluster: inline, user: cert-data }
  - name: token
    context: { cluster: insecure, user: token }
  - name: token-file
    context: { cluster: inline, user: token-file }
  - name: plugin
    context: { cluster: inline, user: plugin }
  - name: impersonating
    context: { cluster: inline, user: impersonating }
current-context: files
`,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads clusters, users and contexts, anchoring relative paths at the file', () => {
    const cfg = readPlatconfig(file);
    assert.equal(cfg.currentContext, 'files');
    const files = cfg.clusters.find((c) => c.name === 'files');
    assert.equal(files?.certificateAuthority, join(dir, 'certs', 'ca.crt'));
    assert.equal(files?.tlsServerName, 'api.internal');
    assert.equal(cfg.clusters.find((c) => c.name === 'inline')?.certificateAuthorityData, 'CA DATA');
    const insecure = cfg.clusters.find((c) => c.name === 'insecure');
    assert.deepEqual(
      [insecure?.insecureSkipTlsVerify, insecure?.proxyUrl],
      [true, 'http://proxy.example:3128'],
    );
    const user = (n: string) => cfg.users.find((u) => u.name === n);
    assert.equal(user('cert-files')?.clientKey, join(dir, 'certs', 'user.key'));
    assert.equal(user('cert-data')?.clientKeyData, 'KEY DATA');
    assert.equal(user('token-file')?.tokenFile, join(dir, 'token'));
    assert.equal(user('plugin')?.exec?.command, join(dir, 'bin', 'plugin'));
    assert.deepEqual(user('impersonating')?.impersonate, {
      user: 'bob',
      groups: ['devs'],
      extra: { scopes: ['read'] },
    });
  });

  it('builds client options for each kind of user, with the context namespace', async () => {
    const files = restOptionsFromPlatconfig(file);
    assert.deepEqual(
      [files.server, files.caPem, files.tlsServerName, files.namespace],
      ['https://files.example:6443', 'CA FILE', 'api.internal', 'team-a'],
    );
    assert.ok(files.credentials instanceof StaticCredentialSource);
    assert.deepEqual(await files.credentials.current(), {
      clientCertificatePem: 'CERT FILE',
      clientKeyPem: 'KEY FILE',
    });
    assert.match(files.userAgent ?? '', /^[\w.-]+\/v1\.\d+\.0 \(\w+\/\w+\) \w+\/0000000$/);

    const inline = restOptionsFromPlatconfig(file, { overrides: { context: 'inline' } });
    assert.deepEqual([inline.caPem, inline.namespace], ['CA DATA', 'default']);
    assert.deepEqual(await inline.credentials?.current(), {
      clientCertificatePem: 'CERT DATA',
      clientKeyPem: 'KEY DATA',
    });

    const token = restOptionsFromPlatconfig(file, { overrides: { context: 'token', namespace: 'other' } });
    assert.deepEqual([token.insecureSkipTlsVerify, token.namespace], [true, 'other']);
    assert.deepEqual(await token.credentials?.current(), { token: 'static-token' });

    const tokenFile = restOptionsFromPlatconfig(file, { overrides: { context: 'token-file' } });
    assert.deepEqual(await tokenFile.credentials?.current(), { token: 'file-token' });

    const plugin = restOptionsFromPlatconfig(file, { overrides: { context: 'plugin' } });
    assert.ok(plugin.credentials instanceof ExecCredentialSource);

    const imp = restOptionsFromPlatconfig(file, { overrides: { context: 'impersonating' } });
    assert.equal(imp.impersonate?.user, 'bob');

    const otherUser = restOptionsFromPlatconfig(file, { overrides: { user: 'token' } });
    assert.deepEqual(await otherUser.credentials?.current(), { token: 'static-token' });
  });

  it('re-reads a token file after its period, and at once after a 401 with its token', async () => {
    let now = 0;
    const clock = { now: () => now, setTimer: () => ({ cancel() {} }) };
    const tokenPath = join(dir, 'rotating');
    writeFileSync(tokenPath, 'one');
    const src = new StaticCredentialSource({ tokenFile: tokenPath, clock });
    writeFileSync(tokenPath, 'two');
    assert.deepEqual(await src.current(), { token: 'one' });
    now += 60_000;
    assert.deepEqual(await src.current(), { token: 'two' });
    writeFileSync(tokenPath, 'three');
    src.unauthorized({ token: 'not-what-it-sent' });
    assert.deepEqual(await src.current(), { token: 'two' });
    src.unauthorized({ token: 'two' });
    assert.deepEqual(await src.current(), { token: 'three' });
    // An unreadable file keeps the last token read.
    rmSync(tokenPath);
    now += 60_000;
    assert.deepEqual(await src.current(), { token: 'three' });
    assert.throws(
      () => new StaticCredentialSource({ tokenFile: join(dir, 'absent') }),
      /failed to read token file/,
    );
    writeFileSync(tokenPath, '\n');
    assert.throws(() => new StaticCredentialSource({ tokenFile: tokenPath }), /read empty token from file/);
  });

  const parseError = (text: string) => {
    try {
      parsePlatconfig(text, '/etc/app/config');
    } catch (err) {
      assert.ok(err instanceof PlatconfigError);
      return err;
    }
    assert.fail('expected an error');
  };

  it('names the file and the field of a wrong type, bad base64, duplicates and removed user kinds', () => {
    const cases: [string, string, RegExp][] = [
      ['clusters: {}', 'clusters', /must be a list, got object/],
      [
        'clusters: [{name: a, cluster: {server: 5}}]',
        'clusters[0].cluster.server',
        /must be a string, got number/,
      ],
      [
        'clusters: [{name: a, cluster: {insecure-skip-tls-verify: "yes"}}]',
        'clusters[0].cluster.insecure-skip-tls-verify',
        /must be a boolean/,
      ],
      [
        'clusters: [{name: a, cluster: {certificate-authority-data: "not base64!"}}]',
        'clusters[0].cluster.certificate-authority-data',
        /illegal base64 data/,
      ],
      ['users: [{name: a, user: {}}, {name: a, user: {}}]', 'users[1].name', /duplicate name "a"/],
      [
        'users: [{name: a, user: {username: u, password: p}}]',
        'users[0].user.username',
        /basic authentication is not supported/,
      ],
      [
        'users: [{name: a, user: {auth-provider: {name: oidc}}}]',
        'users[0].user.auth-provider',
        /use an exec plugin/,
      ],
      [
        `users: [{name: a, user: {exec: {command: x, apiVersion: ${GROUP}/v1}}}]`,
        'users[0].user.exec',
        /interactiveMode must be specified for a to use exec authentication plugin/,
      ],
      ['apiVersion: v2', 'apiVersion', /no kind "Config" is registered for version "v2"/],
      ['current-context: [a]', 'current-context', /must be a string/],
    ];
    for (const [text, field, message] of cases) {
      const err = parseError(text);
      assert.equal(err.field, field, text);
      assert.equal(err.file, '/etc/app/config');
      assert.match(err.message, /^error loading config file "\/etc\/app\/config": /);
      assert.ok(err.message.includes(`${field}: `), err.message);
      assert.match(err.message, message);
    }
    assert.match(parseError('a: [').message, /^error loading config file "\/etc\/app\/config": /);
  });

  it('checks the chosen context as client-go does, every problem at once', () => {
    const cfg = parsePlatconfig(
      `clusters:
  - name: noserver
    cluster: { certificate-authority: /nonexistent/ca.crt, certificate-authority-data: ${b64('x')} }
users:
  - name: halfcert
    user: { client-certificate-data: ${b64('c')} }
contexts:
  - name: broken
    context: { cluster: noserver, user: halfcert, namespace: Not_A_Label }
  - name: dangling
    context: { cluster: nowhere, user: nobody }
current-context: broken`,
      '/etc/app/config',
    );
    assert.throws(
      () => selectContext(cfg),
      (err: PlatconfigError) => {
        assert.equal(err.file, '/etc/app/config');
        assert.match(err.message, /^invalid configuration in "\/etc\/app\/config": \[/);
        for (const part of [
          'contexts[0].context.namespace: namespace "Not_A_Label" for context "broken" does not conform to the DNS_LABEL rules',
          'users[0].user.client-key: client-key-data or client-key must be specified for halfcert to use the clientCert authentication method.',
          'clusters[0].cluster.server: no server found for cluster "noserver"',
          'clusters[0].cluster.certificate-authority: certificate-authority-data and certificate-authority are both specified for noserver. certificate-authority-data will override.',
          'clusters[0].cluster.certificate-authority: unable to read certificate-authority /nonexistent/ca.crt for noserver due to',
        ])
          assert.ok(err.message.includes(part), `${part}\n${err.message}`);
        return true;
      },
    );
    assert.throws(() => selectContext(cfg, { context: 'dangling' }), {
      message:
        'invalid configuration in "/etc/app/config": [contexts[1].context.user: user "nobody" was not found for context "dangling", contexts[1].context.cluster: cluster "nowhere" was not found for context "dangling"]',
    });
    assert.throws(
      () => selectContext(cfg, { context: 'absent' }),
      /context: context was not found for specified context: absent/,
    );
    assert.throws(() => selectContext(parsePlatconfig('', '/f')), /current-context: no context chosen/);
  });
});

describe('in-cluster configuration', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'client-in-cluster-'));
    writeFileSync(join(dir, 'token'), 'sa-token\n');
    writeFileSync(join(dir, 'ca.crt'), '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n');
    writeFileSync(join(dir, 'namespace'), 'team-b');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const files = () => ({
    tokenFile: join(dir, 'token'),
    caFile: join(dir, 'ca.crt'),
    namespaceFile: join(dir, 'namespace'),
  });

  it('reads the service variables, the token, the CA bundle and the namespace', async () => {
    const cfg = inClusterConfig({
      env: { [HOST]: 'fd00::1', [PORT]: '443' },
      files: files(),
    });
    assert.equal(cfg.server, 'https://[fd00::1]:443');
    assert.match(cfg.caPem ?? '', /BEGIN CERTIFICATE/);
    assert.equal(cfg.namespace, 'team-b');
    assert.deepEqual(await cfg.credentials?.current(), { token: 'sa-token' });
  });

  it('fails outside a pod as upstream does, and only warns about an unreadable CA bundle', () => {
    assert.throws(
      () => inClusterConfig({ env: {}, files: files() }),
      (err: Error) =>
        err instanceof NotInClusterError &&
        err.message === `unable to load in-cluster configuration, ${HOST} and ${PORT} must be defined`,
    );
    const warnings: string[] = [];
    const cfg = inClusterConfig({
      env: { [HOST]: '10.0.0.1', [PORT]: '443' },
      files: { ...files(), caFile: join(dir, 'missing.crt') },
      warn: (m) => warnings.push(m),
    });
    assert.equal(cfg.caPem, undefined);
    assert.match(warnings[0] ?? '', /^Expected to load root CA config from .*missing\.crt, but got err: /);
    assert.throws(
      () =>
        inClusterConfig({
          env: { [HOST]: 'h', [PORT]: '1' },
          files: { ...files(), tokenFile: join(dir, 'none') },
        }),
      /failed to read token file/,
    );
  });
});
