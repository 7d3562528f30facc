// Speed of the two candidate CEL engines on the three expressions typical here (claim mapping,
// admission match condition, device selector): compiled once, evaluated in a loop. Loaded from the
// scratch install like conformance.ts:   npx tsx bench/cel/engines.ts [--dir /tmp/celtry]
// `quantity()` is a stub in both engines (a parsed number), enough to measure call overhead.

import { pathToFileURL } from 'node:url';

const EXPRS = {
  claim: 'claims.email.split("@")[0] + ":" + claims.sub',
  claimSimple: '"oidc:" + claims.sub',
  admission:
    'request.resource.group == "apps" && request.operation in ["CREATE","UPDATE"] && !(request.userInfo.username.startsWith("system:"))',
  device:
    'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].memory.compareTo(quantity("8Gi")) >= 0',
};

const SUFFIX: Record<string, number> = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, k: 1e3, M: 1e6, G: 1e9 };
function parseQuantity(s: string): number {
  const m = /^(\d+(?:\.\d+)?)([A-Za-z]*)$/.exec(s);
  if (!m) throw new Error(`bad quantity ${s}`);
  return Number(m[1]) * (SUFFIX[m[2]] ?? 1);
}
class Quantity {
  constructor(readonly n: number) {}
  compareTo(o: Quantity): bigint {
    return this.n < o.n ? -1n : this.n > o.n ? 1n : 0n;
  }
}

export function evalsPerSecond(f: () => unknown, ms: number): number {
  for (let i = 0; i < 2000; i++) f(); // warm up
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 1000; i++) f();
    n += 1000;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

async function main(argv: string[]): Promise<void> {
  const dirIdx = argv.indexOf('--dir');
  const dir = dirIdx >= 0 ? argv[dirIdx + 1] : (process.env.CEL_TRY_DIR ?? '/tmp/celtry');
  const mod = (p: string) => pathToFileURL(`${dir}/node_modules/${p}`).href;
  const ms = 1500;
  const results: Record<string, Record<string, number>> = {};

  // --- @bufbuild/cel: objects must be protobuf messages, so Quantity is an int here.
  {
    // biome-ignore lint/suspicious/noExplicitAny: a dynamically loaded candidate, measured only.
    const cel: any = await import(mod('@bufbuild/cel/dist/esm/index.js'));
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    const ext: any = await import(mod('@bufbuild/cel/dist/esm/ext/index.js'));
    const S = cel.CelScalar;
    const funcs = [
      ...ext.strings,
      cel.celFunc('quantity', [S.STRING], S.INT, (s: string) => BigInt(parseQuantity(s))),
      cel.celMethod('compareTo', S.INT, [S.INT], S.INT, function (this: bigint, o: bigint) {
        return this < o ? -1n : this > o ? 1n : 0n;
      }),
    ];
    const env = cel.celEnv({ funcs });
    const ctx = bufContexts();
    const r: Record<string, number> = {};
    for (const [k, e] of Object.entries(EXPRS)) {
      const p = cel.plan(env, cel.parse(e));
      const c = ctx[k as keyof typeof ctx];
      const v = p(c);
      if (v !== true && typeof v !== 'string') throw new Error(`bufbuild ${k}: ${String(v)}`);
      r[k] = evalsPerSecond(() => p(c), ms);
    }
    results['@bufbuild/cel'] = r;
  }

  // --- @marcbachmann/cel-js: Quantity is a registered object type with a member overload.
  {
    // biome-ignore lint/suspicious/noExplicitAny: a dynamically loaded candidate, measured only.
    const cel: any = await import(mod('@marcbachmann/cel-js/lib/index.js'));
    const env = new cel.Environment({ homogeneousAggregateLiterals: false })
      .registerType('Quantity', Quantity)
      .registerVariable('claims', 'map<string, dyn>')
      .registerVariable('request', 'map<string, dyn>')
      .registerVariable('device', 'map<string, dyn>')
      .registerFunction('quantity(string): Quantity', (s: string) => new Quantity(parseQuantity(s)))
      .registerFunction('Quantity.compareTo(Quantity): int', (a: Quantity, b: Quantity) => a.compareTo(b));
    const ctx = jsContexts();
    const r: Record<string, number> = {};
    for (const [k, e] of Object.entries(EXPRS)) {
      const p = env.parse(e);
      const c = ctx[k as keyof typeof ctx];
      const v = p(c);
      if (v !== true && typeof v !== 'string') throw new Error(`cel-js ${k}: ${String(v)}`);
      r[k] = evalsPerSecond(() => p(c), ms);
    }
    results['@marcbachmann/cel-js'] = r;
  }
  console.log(`| expression | ${Object.keys(results).join(' | ')} |`);
  console.log(
    `| --- | ${Object.keys(results)
      .map(() => '---:')
      .join(' | ')} |`,
  );
  for (const k of Object.keys(EXPRS)) {
    console.log(
      `| ${k} | ${Object.values(results)
        .map((r) => Math.round(r[k]).toLocaleString('en-US'))
        .join(' | ')} |`,
    );
  }
}

function jsContexts() {
  const claims = { email: 'jane@example.com', sub: '1234' };
  const request = {
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    operation: 'CREATE',
    userInfo: { username: 'jane', groups: ['dev'] },
  };
  const device = {
    driver: 'gpu.example.com',
    attributes: { 'gpu.example.com': { memory: new Quantity(parseQuantity('16Gi')) } },
  };
  return { claim: { claims }, claimSimple: { claims }, admission: { request }, device: { device } };
}

function bufContexts() {
  const c = jsContexts();
  const device = {
    driver: 'gpu.example.com',
    attributes: { 'gpu.example.com': { memory: BigInt(parseQuantity('16Gi')) } },
  };
  return { ...c, device: { device } };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  });
}
