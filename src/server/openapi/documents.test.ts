// The OpenAPI documents checked the way stock clients read them: kubectl's field-validation probe
// (a PATCH operation of the kind that lists `fieldValidation`), explain's lookup (an operation's
// group-version-kind, then the schema carrying it), and references that resolve.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { builtinKinds } from '../../apis/index.ts';
import { definitionDomain, OPENAPI_EXTENSIONS as X } from '../../naming/openapi-extensions.ts';
import { namingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { groupVersionPath, openApiV2Document, openApiV3Document, openApiV3Index } from './documents.ts';

type Json = Record<string, unknown>;
const profile = namingProfile('spec');
const kinds = builtinKinds(profile);
const v2 = openApiV2Document(kinds, profile, { title: 'test', version: 'v1.35.0' }) as Json;
const gvPaths = [...new Set(kinds.map(groupVersionPath))];
const v3 = new Map(gvPaths.map((p) => [p, openApiV3Document(kinds, profile, p) as Json]));

const WRITE_METHODS = ['post', 'put', 'patch'];
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const gvkOf = (k: KindDefinition, kind = k.resource.kind) => ({
  group: k.resource.group,
  kind,
  version: k.resource.version,
});

function expectedPaths(k: KindDefinition): string[] {
  const r = k.resource;
  const root = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const base = r.namespaced ? `${root}/namespaces/{namespace}/${r.resource}` : `${root}/${r.resource}`;
  // A create-only kind (a review) has no object path and nothing to list across namespaces.
  if (k.review !== undefined) return [base];
  const out = [base, `${base}/{name}`, ...Object.keys(r.subresources).map((s) => `${base}/{name}/${s}`)];
  if (r.namespaced) out.push(`${root}/${r.resource}`);
  return out;
}

function operations(doc: Json): [string, string, Json][] {
  const out: [string, string, Json][] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const m of METHODS) if (item[m] !== undefined) out.push([path, m, item[m] as Json]);
  }
  return out;
}

function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

/** kubectl's supportsQueryParamV3: the first PATCH of the kind decides. */
function supportsFieldValidation(doc: Json, gvk: Json): boolean {
  for (const item of Object.values(doc.paths as Record<string, Json>)) {
    const op = item.patch as Json | undefined;
    if (op === undefined) continue;
    if (JSON.stringify(op[X.groupVersionKind]) !== JSON.stringify(gvk)) continue;
    return (op.parameters as Json[]).some((p) => p.name === 'fieldValidation');
  }
  return false;
}

describe('OpenAPI v2', () => {
  it('has every path of every kind, each operation with its action and the kind', () => {
    const paths = v2.paths as Record<string, Json>;
    for (const k of kinds) for (const p of expectedPaths(k)) assert.ok(paths[p], `missing ${p}`);
    for (const [path, method, op] of operations(v2)) {
      assert.equal(typeof op[X.action], 'string', `${method} ${path}`);
      const gvk = op[X.groupVersionKind] as Json;
      assert.deepEqual(Object.keys(gvk).sort(), ['group', 'kind', 'version'], `${method} ${path}`);
    }
  });

  it('write operations take dryRun, fieldManager and fieldValidation; every path takes pretty', () => {
    for (const [path, method, op] of operations(v2)) {
      const names = (op.parameters as Json[]).filter((p) => p.in === 'query').map((p) => p.name);
      if (WRITE_METHODS.includes(method)) {
        for (const q of ['dryRun', 'fieldManager', 'fieldValidation'])
          assert.ok(names.includes(q), `${method} ${path}: ${q}`);
      }
    }
    for (const [path, item] of Object.entries(v2.paths as Record<string, Json>)) {
      assert.ok(
        (item.parameters as Json[]).some((p) => p.name === 'pretty'),
        path,
      );
    }
  });

  it('defines each kind and list with the group-version-kind list, under profile-derived names', () => {
    const defs = v2.definitions as Record<string, Json>;
    const stem = definitionDomain(profile.groupDomain);
    for (const k of kinds) {
      const found = Object.entries(defs).filter(
        ([, d]) => JSON.stringify(d[X.groupVersionKind]) === JSON.stringify([gvkOf(k)]),
      );
      assert.equal(found.length, 1, k.resource.kind);
      assert.ok(found[0][0].startsWith(`${stem}.api.`), found[0][0]);
      // Reviews are never stored: no list kind.
      if (k.resource.listKind === '') continue;
      assert.ok(
        Object.values(defs).some(
          (d) => JSON.stringify(d[X.groupVersionKind]) === JSON.stringify([gvkOf(k, k.resource.listKind)]),
        ),
        k.resource.listKind,
      );
    }
    assert.ok(defs[`${stem}.apimachinery.pkg.apis.meta.v1.ObjectMeta`]);
  });

  it('every reference resolves', () => {
    const defs = v2.definitions as Record<string, Json>;
    for (const ref of refsIn(v2)) assert.ok(defs[ref.replace('#/definitions/', '')], ref);
  });
});

describe('OpenAPI v3', () => {
  it('one document per group-version with every path of its kinds', () => {
    for (const k of kinds) {
      const doc = v3.get(groupVersionPath(k)) as Json;
      for (const p of expectedPaths(k)) assert.ok((doc.paths as Json)[p], `missing ${p}`);
    }
    assert.equal(openApiV3Document(kinds, profile, 'apis/nothing/v1'), undefined);
  });

  it("satisfies kubectl's field validation probe for every kind", () => {
    // Kinds without PATCH (the reviews) have nothing for the probe to find, as upstream's.
    for (const k of kinds.filter((x) => x.resource.verbs.includes('patch'))) {
      assert.ok(supportsFieldValidation(v3.get(groupVersionPath(k)) as Json, gvkOf(k)), k.resource.kind);
    }
  });

  it('every write operation takes fieldValidation; PATCH bodies list the patch types', () => {
    for (const doc of v3.values()) {
      for (const [path, method, op] of operations(doc)) {
        if (!WRITE_METHODS.includes(method)) continue;
        assert.ok(
          (op.parameters as Json[]).some((p) => p.name === 'fieldValidation'),
          `${method} ${path}`,
        );
        if (method === 'patch') {
          const content = (op.requestBody as Json).content as Json;
          for (const t of [
            'application/json-patch+json',
            'application/merge-patch+json',
            'application/strategic-merge-patch+json',
            'application/apply-patch+yaml',
          ])
            assert.ok(content[t], `${path}: ${t}`);
        }
      }
    }
  });

  it("lets explain find each kind: an operation's kind, then the schema carrying it", () => {
    for (const k of kinds) {
      const doc = v3.get(groupVersionPath(k)) as Json;
      const paths = doc.paths as Record<string, Json>;
      const [list] = expectedPaths(k);
      const op = METHODS.map((m) => paths[list][m] as Json | undefined).find((o) => o?.[X.groupVersionKind]);
      const gvk = op?.[X.groupVersionKind];
      assert.deepEqual(gvk, gvkOf(k));
      const schemas = Object.values((doc.components as Json).schemas as Record<string, Json>);
      const schema = schemas.find((s) =>
        ((s[X.groupVersionKind] as Json[] | undefined) ?? []).some(
          (g) => JSON.stringify(g) === JSON.stringify(gvk),
        ),
      );
      assert.ok(schema, k.resource.kind);
      assert.equal(typeof schema.description, 'string');
      assert.ok((schema.properties as Json).metadata);
    }
  });

  it('every reference resolves within its document, and no internal marker leaks', () => {
    for (const doc of v3.values()) {
      const schemas = (doc.components as Json).schemas as Record<string, Json>;
      for (const ref of refsIn(doc)) assert.ok(schemas[ref.replace('#/components/schemas/', '')], ref);
      assert.ok(!JSON.stringify(doc).includes('"goType"'));
    }
  });

  it('the index names each document with the uppercase SHA-512 of its content, stable across builds', () => {
    const index = openApiV3Index(kinds, profile) as { paths: Record<string, { serverRelativeURL: string }> };
    assert.deepEqual(Object.keys(index.paths).sort(), [...gvPaths].sort());
    for (const [gv, entry] of Object.entries(index.paths)) {
      const hash = createHash('sha512')
        .update(JSON.stringify(v3.get(gv)))
        .digest('hex')
        .toUpperCase();
      assert.equal(entry.serverRelativeURL, `/openapi/v3/${gv}?hash=${hash}`);
    }
    assert.deepEqual(openApiV3Index(builtinKinds(profile), profile), index);
  });

  it('the upstream profile derives its own definition names and groups', () => {
    const up = namingProfile('upstream');
    const upKinds = builtinKinds(up);
    const lease = upKinds.find((k) => k.resource.kind === 'Lease') as KindDefinition;
    const doc = openApiV3Document(upKinds, up, groupVersionPath(lease)) as Json;
    const names = Object.keys((doc.components as Json).schemas as Json);
    assert.ok(names.includes(`${definitionDomain(up.groupDomain)}.api.coordination.v1.Lease`), names.join());
  });
});
