// What a legacy token Secret must hold and whose token it is: the type, the name annotation and
// the uid annotation when set; which of token, namespace and ca.crt need writing; the filled-in
// copy (the cached object untouched); and queue keys that survive odd objects.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { labelKey, namingProfile } from '../../naming/profile.ts';
import { serviceAccountNames } from '../../naming/service-accounts.ts';
import {
  accountKey,
  isServiceAccountToken,
  parseAccountKey,
  parseSecretKey,
  populatedSecret,
  secretKey,
  secretReferences,
  secretUpdateNeeded,
} from './token-secret.ts';

const spec = namingProfile('spec');
const names = serviceAccountNames(spec);
const b64 = (s: string) => Buffer.from(s).toString('base64');
const sa = { namespace: 'ns1', name: 'builder', uid: 'uid-1' };
const CA = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';

function tokenSecret(annotations: Record<string, string>, data?: Record<string, string>): ApiObject {
  return {
    metadata: { name: 'builder-token', namespace: 'ns1', uid: 's-1', resourceVersion: '5', annotations },
    type: labelKey(spec, 'service-account-token'),
    ...(data === undefined ? {} : { data }),
  };
}

describe('legacy token Secrets', () => {
  it('belong to the account they name, by name and, when set, uid', () => {
    assert.ok(isServiceAccountToken(tokenSecret({ [names.nameAnnotation]: 'builder' }), sa, names));
    assert.ok(
      isServiceAccountToken(
        tokenSecret({ [names.nameAnnotation]: 'builder', [names.uidAnnotation]: 'uid-1' }),
        sa,
        names,
      ),
    );
    assert.ok(
      !isServiceAccountToken(
        tokenSecret({ [names.nameAnnotation]: 'builder', [names.uidAnnotation]: 'uid-2' }),
        sa,
        names,
      ),
    );
    assert.ok(!isServiceAccountToken(tokenSecret({ [names.nameAnnotation]: 'other' }), sa, names));
    assert.ok(
      !isServiceAccountToken(
        { ...tokenSecret({ [names.nameAnnotation]: 'builder' }), type: 'Opaque' },
        sa,
        names,
      ),
    );
    assert.ok(
      !isServiceAccountToken(
        { type: names.tokenSecretType, metadata: { annotations: null } } as unknown as ApiObject,
        sa,
        names,
      ),
    );
  });

  it('need a token, a namespace and the configured CA', () => {
    assert.deepEqual(secretUpdateNeeded(tokenSecret({}), CA), { ca: true, namespace: true, token: true });
    assert.deepEqual(secretUpdateNeeded(tokenSecret({}), ''), { ca: false, namespace: true, token: true });
    const full = tokenSecret({}, { token: b64('t'), namespace: b64('ns1'), 'ca.crt': b64(CA) });
    assert.deepEqual(secretUpdateNeeded(full, CA), { ca: false, namespace: false, token: false });
    assert.deepEqual(secretUpdateNeeded(full, `${CA}x`), { ca: true, namespace: false, token: false });
    assert.deepEqual(secretUpdateNeeded({ data: { token: 5 } } as ApiObject, ''), {
      ca: false,
      namespace: true,
      token: true,
    });
  });

  it('are filled in on a copy, with the account named and its uid', () => {
    const live = Object.freeze(
      tokenSecret({ [names.nameAnnotation]: 'builder', keep: 'me' }, { extra: b64('x') }),
    );
    const next = populatedSecret(live, sa, { ca: true, namespace: true, token: true }, CA, 'jwt', names);
    assert.deepEqual(next.data, {
      extra: b64('x'),
      'ca.crt': b64(CA),
      namespace: b64('ns1'),
      token: b64('jwt'),
    });
    assert.deepEqual(next.metadata?.annotations, {
      [names.nameAnnotation]: 'builder',
      keep: 'me',
      [names.uidAnnotation]: 'uid-1',
    });
    assert.deepEqual(live.data, { extra: b64('x') });
    const onlyNs = populatedSecret(
      live,
      sa,
      { ca: false, namespace: true, token: false },
      CA,
      undefined,
      names,
    );
    assert.deepEqual(onlyNs.data, { extra: b64('x'), namespace: b64('ns1') });
  });

  it('list references and make keys only from whole objects', () => {
    assert.deepEqual(
      [...secretReferences({ secrets: [{ name: 'a' }, { name: 5 }, null, { name: 'b' }] })],
      ['a', 'b'],
    );
    assert.deepEqual([...secretReferences({ secrets: 'x' })], []);
    const key = accountKey({ metadata: { namespace: 'ns1', name: 'builder', uid: 'uid-1' } });
    assert.deepEqual(parseAccountKey(key ?? ''), sa);
    assert.equal(accountKey({ metadata: { namespace: 'ns1', name: 'builder' } }), undefined);
    const skey = secretKey(tokenSecret({ [names.nameAnnotation]: 'builder' }), names);
    assert.deepEqual(parseSecretKey(skey ?? ''), {
      namespace: 'ns1',
      name: 'builder-token',
      uid: 's-1',
      saName: 'builder',
      saUid: '',
    });
    assert.equal(secretKey(tokenSecret({}), names), undefined);
  });
});
