// Stock kubectl driving workloads that run: a Deployment on the control plane with simulated nodes,
// rolled out, scaled, changed, rolled back, paused and restarted, described with its events, and
// deleted with each cascade. Every step waits for what the controllers make happen.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { POD_UPDATE_FORBIDDEN_MESSAGE } from '../../src/apis/core/pod/index.ts';
import {
  KUBECTLS,
  kubectl,
  type Run,
  startTestServer,
  type TestServer,
  waitUntil,
  writeTemp,
} from './lib/harness.ts';

/** Long enough for a loaded CI machine; each step normally finishes in a second or two. */
const ROLLOUT_TIMEOUT = '120s';

for (const k of KUBECTLS) {
  describe(`${k.name}: rollout`, () => {
    let ts: TestServer;
    const run = (...args: string[]) => kubectl(k.path, ts, args);
    const ok = async (...args: string[]): Promise<Run> => {
      const r = await run(...args);
      assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
      return r;
    };
    const jsonpath = async (what: string, path: string) =>
      (await ok('get', ...what.split(' '), '-o', `jsonpath=${path}`)).stdout;

    before(async () => {
      ts = await startTestServer({}, { simulatedNodes: 2 });
    });
    after(() => ts.stop());

    it('create deployment, then rollout status succeeds', async () => {
      const r = await ok('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=3');
      assert.equal(r.stdout.trim(), 'deployment.apps/web created');
      const s = await ok('rollout', 'status', 'deployment/web', `--timeout=${ROLLOUT_TIMEOUT}`);
      assert.match(s.stdout, /deployment "web" successfully rolled out/);
      assert.equal(await jsonpath('deploy web', '{.status.availableReplicas}'), '3');
    });

    it('get rs,pods -o wide shows the replica set and its running pods on simulated nodes', async () => {
      const r = await ok('get', 'rs,pods', '-o', 'wide');
      assert.match(r.stdout, /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR$/m);
      assert.match(
        r.stdout,
        /^replicaset\.apps\/web-[a-z0-9]+\s+3\s+3\s+3\s+\d+s\s+nginx\s+nginx:1\.27\s+app=web,pod-template-hash=[a-z0-9]+$/m,
      );
      assert.match(
        r.stdout,
        /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES$/m,
      );
      const pods = r.stdout.split('\n').filter((l) => l.startsWith('pod/web-'));
      assert.equal(pods.length, 3, r.stdout);
      for (const line of pods)
        assert.match(
          line,
          /^pod\/web-[a-z0-9]+-[a-z0-9]{5}\s+1\/1\s+Running\s+0\s+\d+s\s+\S+\s+\S+\s+<none>\s+<none>$/,
        );
    });

    it('get nodes shows the simulated nodes Ready, and describe pod shows where it runs', async () => {
      const r = await ok('get', 'nodes');
      assert.match(r.stdout, /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION$/m);
      assert.equal(
        r.stdout.split('\n').filter((l) => /^\S+\s+Ready\s+<none>\s+\d+s\s+v1\.35\.\d+$/.test(l)).length,
        2,
      );
      const pod = (await jsonpath('pods -l app=web', '{.items[0].metadata.name}')).trim();
      const d = await ok('describe', 'pod', pod);
      assert.match(d.stdout, /^Status:\s+Running$/m);
      assert.match(d.stdout, /^Node:\s+\S+\/\d+\.\d+\.\d+\.\d+$/m);
      assert.match(d.stdout, /^Controlled By:\s+ReplicaSet\/web-[a-z0-9]+$/m);
    });

    it('scale to a negative number is refused with 422 and changes nothing', async () => {
      // kubectl scale refuses a negative count itself; a patch of the scale sub-resource reaches the server.
      const r = await run(
        'patch',
        'deployment',
        'web',
        '--subresource=scale',
        '--type=merge',
        '-p',
        '{"spec":{"replicas":-1}}',
      );
      assert.notEqual(r.code, 0);
      assert.match(
        r.stderr,
        /The Scale "web" is invalid: spec\.replicas: Invalid value: -1: must be greater than or equal to 0/,
      );
      assert.equal(await jsonpath('deploy web', '{.spec.replicas}'), '3');
    });

    it('an invalid pod spec is refused with its causes; a pod change beyond the mutable fields is forbidden', async () => {
      const bad = `apiVersion: v1
kind: Pod
metadata:
  name: bad
spec:
  containers:
  - name: c
    image: nginx:1.27
  - name: c
    image: ""
`;
      const r = await run('create', '-f', writeTemp(ts, 'bad-pod.yaml', bad));
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /The Pod "bad" is invalid: /);
      assert.match(r.stderr, /spec\.containers\[1\]\.name: Duplicate value: "c"/);
      assert.match(r.stderr, /spec\.containers\[1\]\.image: Required value/);
      assert.notEqual((await run('get', 'pod', 'bad')).code, 0);
      const pod = (await jsonpath('pods -l app=web', '{.items[0].metadata.name}')).trim();
      const p = await run('patch', 'pod', pod, '-p', '{"spec":{"restartPolicy":"Never"}}');
      assert.notEqual(p.code, 0);
      assert.ok(p.stderr.includes(POD_UPDATE_FORBIDDEN_MESSAGE), p.stderr);
      assert.equal(await jsonpath(`pod ${pod}`, '{.spec.restartPolicy}'), 'Always');
    });

    it('scale changes the running pods', async () => {
      const r = await ok('scale', 'deployment', 'web', '--replicas=5');
      assert.equal(r.stdout.trim(), 'deployment.apps/web scaled');
      await ok('rollout', 'status', 'deployment/web', `--timeout=${ROLLOUT_TIMEOUT}`);
      assert.equal(await jsonpath('deploy web', '{.status.readyReplicas}'), '5');
    });

    it('set image rolls a new revision, and history lists both', async () => {
      const r = await ok('set', 'image', 'deployment/web', 'nginx=nginx:1.28');
      assert.equal(r.stdout.trim(), 'deployment.apps/web image updated');
      const s = await ok('rollout', 'status', 'deployment/web', `--timeout=${ROLLOUT_TIMEOUT}`);
      assert.match(s.stdout, /deployment "web" successfully rolled out/);
      assert.equal(await jsonpath('deploy web', '{.status.updatedReplicas}'), '5');
      await waitUntil(async () => {
        const now = await jsonpath('pods', '{range .items[*]}{.spec.containers[0].image}{"\\n"}{end}');
        return now
          .trim()
          .split('\n')
          .every((i) => i === 'nginx:1.28');
      }, 'every pod on nginx:1.28 (the old ones deleted)');
      const h = await ok('rollout', 'history', 'deployment/web');
      assert.match(h.stdout, /^REVISION\s+CHANGE-CAUSE$/m);
      assert.match(h.stdout, /^1\s+<none>$/m);
      assert.match(h.stdout, /^2\s+<none>$/m);
    });

    it('rollout undo goes back to the first template as revision 3', async () => {
      const r = await ok('rollout', 'undo', 'deployment/web');
      assert.equal(r.stdout.trim(), 'deployment.apps/web rolled back');
      await ok('rollout', 'status', 'deployment/web', `--timeout=${ROLLOUT_TIMEOUT}`);
      assert.equal(await jsonpath('deploy web', '{.spec.template.spec.containers[0].image}'), 'nginx:1.27');
      const h = await ok('rollout', 'history', 'deployment/web');
      assert.match(h.stdout, /^2\s+<none>$/m);
      assert.match(h.stdout, /^3\s+<none>$/m);
      assert.doesNotMatch(h.stdout, /^1\s+<none>$/m);
    });

    it('rollout pause holds a change until resume', async () => {
      assert.equal(
        (await ok('rollout', 'pause', 'deployment/web')).stdout.trim(),
        'deployment.apps/web paused',
      );
      await ok('set', 'image', 'deployment/web', 'nginx=nginx:1.29');
      await waitUntil(
        async () =>
          (await jsonpath('deploy web', '{.status.conditions[?(@.type=="Progressing")].reason}')) ===
          'DeploymentPaused',
        'the Progressing condition says DeploymentPaused',
      );
      const rsNames = await jsonpath(
        'rs',
        '{range .items[*]}{.spec.template.spec.containers[0].image}{"\\n"}{end}',
      );
      assert.doesNotMatch(rsNames, /nginx:1\.29/);
      assert.equal(
        (await ok('rollout', 'resume', 'deployment/web')).stdout.trim(),
        'deployment.apps/web resumed',
      );
      await ok('rollout', 'status', 'deployment/web', `--timeout=${ROLLOUT_TIMEOUT}`);
      assert.equal(await jsonpath('deploy web', '{.status.updatedReplicas}'), '5');
    });

    it('rollout restart rolls every pod again', async () => {
      const before = await jsonpath('rs', '{range .items[*]}{.metadata.name}{"\\n"}{end}');
      assert.equal(
        (await ok('rollout', 'restart', 'deployment/web')).stdout.trim(),
        'deployment.apps/web restarted',
      );
      await ok('rollout', 'status', 'deployment/web', `--timeout=${ROLLOUT_TIMEOUT}`);
      const after = await jsonpath('rs', '{range .items[*]}{.metadata.name}{"\\n"}{end}');
      const added = after
        .trim()
        .split('\n')
        .filter((n) => !before.includes(n));
      assert.equal(added.length, 1, `one new replica set (before ${before}, after ${after})`);
    });

    it('wait --for=condition=Available succeeds', async () => {
      const r = await ok(
        'wait',
        '--for=condition=Available',
        'deployment/web',
        `--timeout=${ROLLOUT_TIMEOUT}`,
      );
      assert.equal(r.stdout.trim(), 'deployment.apps/web condition met');
    });

    it('describe deployment shows the controller events', async () => {
      const r = await ok('describe', 'deployment', 'web');
      assert.match(r.stdout, /^Events:$/m);
      assert.match(
        r.stdout,
        /Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set web-[a-z0-9]+ from 0 to 3/,
      );
      assert.match(r.stdout, /Scaled down replica set web-[a-z0-9]+ from \d+ to \d+/);
    });

    it('kubectl events lists them', async () => {
      const r = await ok('events');
      assert.match(r.stdout, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/m);
      assert.match(r.stdout, /Normal\s+ScalingReplicaSet\s+Deployment\/web\s+Scaled up replica set/);
      assert.match(r.stdout, /Normal\s+SuccessfulCreate\s+ReplicaSet\/web-[a-z0-9]+\s+Created pod: web-/);
    });

    it('delete --cascade=orphan leaves the replica sets and pods, without an owner', async () => {
      await ok('create', 'deployment', 'keep', '--image=nginx:1.27', '--replicas=2');
      await ok('rollout', 'status', 'deployment/keep', `--timeout=${ROLLOUT_TIMEOUT}`);
      const r = await ok('delete', 'deployment', 'keep', '--cascade=orphan');
      // kubectl 1.35 names the namespace, 1.32 does not.
      assert.match(r.stdout.trim(), /^deployment\.apps "keep" deleted( from default namespace)?$/);
      await waitUntil(async () => {
        const owners = await jsonpath(
          'rs -l app=keep',
          '{range .items[*]}{.metadata.name}={.metadata.ownerReferences}{"\\n"}{end}',
        );
        const lines = owners.trim().split('\n').filter(Boolean);
        return lines.length === 1 && lines.every((l) => l.endsWith('='));
      }, 'the orphaned replica set without ownerReferences');
      const gone = await run('get', 'deployment', 'keep');
      assert.notEqual(gone.code, 0);
      assert.equal(
        (await jsonpath('pods -l app=keep', '{range .items[*]}{.metadata.name}{"\\n"}{end}'))
          .trim()
          .split('\n').length,
        2,
      );
    });

    it('delete with the default background cascade lets the collector remove the replica sets and pods', async () => {
      await ok('create', 'deployment', 'bg', '--image=nginx:1.27', '--replicas=2');
      await ok('rollout', 'status', 'deployment/bg', `--timeout=${ROLLOUT_TIMEOUT}`);
      const r = await ok('delete', 'deployment', 'bg');
      assert.match(r.stdout.trim(), /^deployment\.apps "bg" deleted( from default namespace)?$/);
      await waitUntil(
        async () =>
          (await jsonpath('rs -l app=bg', '{.items}')) === '[]' &&
          (await jsonpath('pods -l app=bg', '{.items}')) === '[]',
        'the replica set and pods of the deleted deployment collected',
      );
    });

    it('delete --cascade=foreground removes the pods and replica sets before the deployment', async () => {
      const r = await ok(
        'delete',
        'deployment',
        'web',
        '--cascade=foreground',
        `--timeout=${ROLLOUT_TIMEOUT}`,
      );
      assert.match(r.stdout.trim(), /^deployment\.apps "web" deleted( from default namespace)?$/);
      // Foreground: kubectl's delete answers once the deployment is marked; it goes after its dependents.
      await waitUntil(async () => {
        const d = await run('get', 'deployment', 'web');
        const rs = await jsonpath('rs -l app=web', '{.items}');
        return d.code !== 0 && rs === '[]';
      }, 'the deployment and its replica sets gone');
      await waitUntil(async () => (await jsonpath('pods -l app=web', '{.items}')) === '[]', 'the pods gone');
    });
  });
}
