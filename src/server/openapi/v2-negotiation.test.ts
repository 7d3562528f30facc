// /openapi/v2's Accept negotiation, case by case against what upstream's handler (goautoneg's sort,
// then the first clause that covers an offer) picks.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { negotiateOpenApiV2 } from './v2-negotiation.ts';

const CLIENT_GO = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const SUCCESSOR = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

describe('/openapi/v2 negotiation', () => {
  const cases: [string | undefined, string | undefined][] = [
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['*', 'json'],
    ['application/*', 'json'],
    ['application/json', 'json'],
    ['application/json;charset=utf-8', 'json'],
    [CLIENT_GO, 'protobuf'],
    [SUCCESSOR, 'protobuf'],
    [`${CLIENT_GO}, application/json`, 'protobuf'],
    [`application/json;q=0.5, ${CLIENT_GO}`, 'protobuf'],
    // Specific before wildcard at equal q.
    [`*/*, ${SUCCESSOR}`, 'protobuf'],
    // A lower q still wins over what cannot be served at all.
    [`text/html, ${CLIENT_GO};q=0.1`, 'protobuf'],
    // goautoneg keeps q=0 clauses: upstream serves them.
    ['application/json;q=0', 'json'],
    // A malformed q reads as 0, below the other clause.
    [`application/json;q=high, ${CLIENT_GO}`, 'protobuf'],
    // Media types are compared as written, as upstream compares them.
    ['Application/JSON', undefined],
    ['application/yaml', undefined],
    ['application/vnd.kubernetes.protobuf', undefined],
    ['text/*', undefined],
    ['application', undefined],
  ];
  for (const [accept, want] of cases) {
    it(`${JSON.stringify(accept)} -> ${want ?? '406'}`, () => {
      assert.equal(negotiateOpenApiV2(accept), want);
    });
  }
});
