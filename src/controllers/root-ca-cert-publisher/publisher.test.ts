// The root CA publisher against an in-process server through the real client and informers: the
// CA bundle ConfigMap with its description in every namespace, restored when edited or deleted,
// RootCAFile preferred over the client's CA, and nothing written in a namespace being deleted.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { controllerObjectNames } from '../../naming/controller-objects.ts';
import { componentName, labelKey, namingProfile } from '../../naming/profile.ts';
import { createCa } from '../../server/pki/generate.ts';
import { waitFor, waitUntil } from '../../server/testing/wait-for.ts';
import { CONFIG_MAPS, NAMESPACES } from '../controller-support.ts';
import { type ControllerHarness, startControllerHarness } from '../testing/index.ts';
import { rootCACertPublisherDescriptor } from './index.ts';

const spec = namingProfile('spec');
const names = controllerObjectNames(spec);
const NAME = componentName(spec, 'root-ca.crt');
const DESCRIPTION_KEY = labelKey(spec, 'description');

async function getCm(h: ControllerHarness, ns: string): Promise<ApiObject | undefined> {
  try {
    return await h.client.resource(CONFIG_MAPS, ns).get(NAME);
  } catch {
    return undefined;
  }
}

const published = (cm: ApiObject | undefined, ca: string) =>
  cm !== undefined &&
  JSON.stringify(cm.data) === JSON.stringify({ 'ca.crt': ca }) &&
  cm.metadata?.annotations?.[DESCRIPTION_KEY] === names.rootCADescription;

describe('root CA certificate publisher', () => {
  let h: ControllerHarness;
  before(async () => {
    h = await startControllerHarness();
    await h.start(rootCACertPublisherDescriptor);
  });
  after(async () => h?.stop());

  it('is named as upstream', () => {
    assert.equal(NAME, names.rootCAConfigMap);
    assert.equal(controllerObjectNames(namingProfile('upstream')).rootCAConfigMap, 'kube-root-ca.crt');
    assert.equal(rootCACertPublisherDescriptor.name, 'root-ca-certificate-publisher-controller');
    assert.deepEqual(rootCACertPublisherDescriptor.aliases, ['root-ca-cert-publisher']);
    assert.equal(rootCACertPublisherDescriptor.serviceAccountName, 'root-ca-cert-publisher');
  });

  it('publishes the client CA in every namespace, new ones included', async () => {
    assert.notEqual(h.caPem, '');
    for (const ns of ['default', componentName(spec, 'system'), componentName(spec, 'public')]) {
      await waitUntil(async () => published(await getCm(h, ns), h.caPem), `CA ConfigMap in ${ns}`);
    }
    await h.client
      .resource(NAMESPACES)
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } });
    await waitUntil(async () => published(await getCm(h, 'team-b'), h.caPem), 'CA ConfigMap in team-b');
  });

  it('restores the ConfigMap when edited or deleted', async () => {
    const configMaps = h.client.resource(CONFIG_MAPS, 'team-b');
    const cm = await waitFor(
      () => getCm(h, 'team-b'),
      (c) => published(c, h.caPem),
      'CA ConfigMap in team-b',
    );
    await configMaps.update({
      ...cm,
      metadata: { ...cm?.metadata, annotations: { other: 'x' } },
      data: { 'ca.crt': 'tampered', extra: 'y' },
    });
    const restored = await waitFor(
      () => getCm(h, 'team-b'),
      (c) => published(c, h.caPem),
      'CA ConfigMap restored',
    );
    assert.equal(restored?.metadata?.annotations?.other, 'x', 'other annotations are kept');
    await configMaps.delete(NAME);
    await waitUntil(async () => {
      const c = await getCm(h, 'team-b');
      return published(c, h.caPem) && c?.metadata?.uid !== cm?.metadata?.uid;
    }, 'CA ConfigMap recreated');
  });

  it('publishes RootCAFile when configured', async () => {
    const h2 = await startControllerHarness();
    try {
      const ca = (await createCa('configured-root', 1)).certPem;
      const file = join(h2.api.dir, 'root-ca.pem');
      writeFileSync(file, ca);
      await h2.start(rootCACertPublisherDescriptor, { SAController: { RootCAFile: file } });
      await waitUntil(async () => published(await getCm(h2, 'default'), ca), 'configured CA in default');
      await assert.rejects(
        rootCACertPublisherDescriptor.start(
          h2.context({ SAController: { RootCAFile: join(h2.api.dir, 'none') } }),
        ),
        /^Error: error parsing root-ca-file at .*none: ENOENT/,
      );
    } finally {
      await h2.stop();
    }
  });
});
