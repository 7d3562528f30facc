import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sortKeys } from '../serializers.ts';
import { decodeCbor } from './decode.ts';
import { encodeCbor } from './encode.ts';

// Objects as a server returns them, written by hand.
const FIXTURES: Record<string, string> = {
  ConfigMap: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"app-config","namespace":"default",
    "uid":"3f0c9c1e-2b51-4d1c-9a63-0c8e6b1f2d4a","resourceVersion":"12345","creationTimestamp":"2024-05-01T10:00:00Z",
    "labels":{"app.platform.io/name":"web","tier":"frontend"},"annotations":{"note":"ünïcödé ✓ 水"}},
    "data":{"app.properties":"color=blue\\nsize=10\\n","empty":"","json":"{\\"a\\":[1,2]}"},
    "binaryData":{"logo.png":"iVBORw0KGgo="},"immutable":false}`,
  Secret: `{"apiVersion":"v1","kind":"Secret","type":"Opaque","metadata":{"name":"creds","namespace":"prod",
    "resourceVersion":"9","finalizers":["platform.io/protect"],"ownerReferences":[{"apiVersion":"apps/v1",
    "kind":"Deployment","name":"web","uid":"0b7e","controller":true,"blockOwnerDeletion":true}]},
    "data":{"password":"c2VjcmV0","username":"YWRtaW4="},"stringData":null}`,
  Namespace: `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-a","generation":0,
    "labels":{"platform.io/metadata.name":"team-a"}},"spec":{"finalizers":["platform"]},
    "status":{"phase":"Active","conditions":[]}}`,
  Deployment: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default",
    "generation":3,"resourceVersion":"884422","creationTimestamp":"2024-05-01T10:00:00Z",
    "managedFields":[{"manager":"platctl","operation":"Apply","apiVersion":"apps/v1","time":"2024-05-01T10:00:00Z",
    "fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":
    {"k:{\\"name\\":\\"web\\"}":{".":{},"f:image":{},"f:name":{}}}}}}}}]},
    "spec":{"replicas":3,"revisionHistoryLimit":10,"progressDeadlineSeconds":600,
    "selector":{"matchLabels":{"app":"web"}},
    "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":1}},
    "template":{"metadata":{"labels":{"app":"web"},"creationTimestamp":null},
    "spec":{"terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","restartPolicy":"Always",
    "securityContext":{"runAsUser":1000,"fsGroup":2000},
    "containers":[{"name":"web","image":"registry.example/web:1.2.3","imagePullPolicy":"IfNotPresent",
    "args":["--port=8080","--ratio=0.75"],"ports":[{"containerPort":8080,"protocol":"TCP","name":"http"}],
    "env":[{"name":"GOMAXPROCS","value":"2"},{"name":"POD_IP","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"status.podIP"}}}],
    "resources":{"limits":{"cpu":"500m","memory":"128Mi"},"requests":{"cpu":"250m","memory":"64Mi"}},
    "readinessProbe":{"httpGet":{"path":"/healthz","port":8080,"scheme":"HTTP"},"initialDelaySeconds":5,
    "periodSeconds":10,"successThreshold":1,"failureThreshold":3,"timeoutSeconds":1}}]}}},
    "status":{"observedGeneration":3,"replicas":3,"readyReplicas":3,"availableReplicas":3,"updatedReplicas":3,
    "conditions":[{"type":"Available","status":"True","lastUpdateTime":"2024-05-01T10:01:00Z",
    "lastTransitionTime":"2024-05-01T10:01:00Z","reason":"MinimumReplicasAvailable","message":"Deployment has minimum availability."}],
    "weights":[-1,0,0.5,-2.25,1e-7,123456.789,9007199254740991]}}`,
};

describe('JSON value -> CBOR -> value', () => {
  for (const [kind, text] of Object.entries(FIXTURES)) {
    it(`round-trips a ${kind} to an identical value`, () => {
      const parsed = JSON.parse(text);
      const bytes = encodeCbor(parsed);
      const { value, duplicates } = decodeCbor(bytes, { top: 'object' });
      assert.deepStrictEqual(value, parsed);
      assert.deepEqual(duplicates, []);
      assert.equal(JSON.stringify(sortKeys(value)), JSON.stringify(sortKeys(parsed)));
      // Deterministic: the decoded value (keys now in CBOR order) encodes to the same bytes.
      assert.deepEqual(encodeCbor(value), bytes);
    });
  }

  it('keeps strings byte-exact, numbers exact and integers as integers', () => {
    const parsed = JSON.parse(FIXTURES.Deployment);
    const { value } = decodeCbor(encodeCbor(parsed));
    const v = value as { status: { weights: number[] }; spec: { replicas: number } };
    assert.deepEqual(v.status.weights, [-1, 0, 0.5, -2.25, 1e-7, 123456.789, 9007199254740991]);
    assert.equal(v.spec.replicas, 3);
    const annotations = (
      decodeCbor(encodeCbor(JSON.parse(FIXTURES.ConfigMap))).value as {
        metadata: { annotations: { note: string } };
      }
    ).metadata.annotations;
    assert.equal(annotations.note, 'ünïcödé ✓ 水');
  });
});
