// One backend's share of the storage scenario: write throughput at several writer counts, the raw
// ceiling interleaved with it, point reads, and a full list.

import type { Storage } from '../../src/storage/interface.ts';
import type { BackendName } from '../lib/scenario.ts';
import { type Summary, summarize } from '../lib/stats.ts';
import { nowMs, runLoad } from '../lib/timing.ts';
import type { BackendHarness } from './backends.ts';
import { rawEtcdPuts, rawSqliteInserts } from './ceilings.ts';
import { CEILING_TARGETS, type StorageBenchConfig } from './config.ts';
import { ConfigMapFactory } from './objects.ts';

export interface RunCount {
  ops: number;
  elapsedMs: number;
  /** This process's CPU time (user + system) during the run, where measured. */
  cpuMs?: number;
}

export interface ThroughputResult {
  concurrency: number;
  perSec: Summary;
  /**
   * CPU microseconds per operation: on a machine shared with other work, throughput swings with
   * the neighbours' load, while the CPU an operation costs stays comparable between runs (two
   * drivers, say). Includes the WAL syncs' system time in the thread pool.
   */
  cpuMicrosPerOp: Summary;
  runs: RunCount[];
}

export interface CeilingResult {
  kind: 'sqlite-batched-insert' | 'etcd3-put';
  description: string;
  perSec: Summary;
  runs: RunCount[];
  sqliteVersion?: string;
}

export interface BackendResult {
  backend: BackendName;
  details: Record<string, string>;
  objectBytes: number;
  writes: ThroughputResult[];
  reads: ThroughputResult;
  list: {
    objects: number;
    bytes: number;
    populate: RunCount;
    seconds: Summary;
    objectsPerSec: Summary;
    mbPerSec: Summary;
  };
  ceiling: CeilingResult;
  /** Writes at `writers` over the ceiling, paired run by run (both ran back to back). */
  ceilingRatio: { writers: number; ratio: Summary; target: number; met: boolean };
}

type Log = (message: string) => void;

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

function fmtRate(n: number): string {
  return `${Math.round(n).toLocaleString('en-US')}/s`;
}

async function populate(storage: Storage, factory: ConfigMapFactory, total: number, concurrency: number) {
  return runLoad({ concurrency, total, op: (seq) => storage.create(factory.keyOf(seq), factory.make(seq)) });
}

async function measureCeiling(
  harness: BackendHarness,
  cfg: StorageBenchConfig,
  run: number,
  value: Buffer,
): Promise<{ ops: number; elapsedMs: number; perSec: number; sqliteVersion?: string }> {
  if (harness.name === 'sqlite') {
    if (harness.scratchDir === undefined) throw new Error('sqlite harness has no scratch dir');
    const r = rawSqliteInserts({
      dir: harness.scratchDir,
      run,
      durationMs: cfg.rawDurationMs,
      batchRows: cfg.rawSqliteBatchRows,
      value,
      driver: harness.sqliteDriver ?? 'better-sqlite3',
    });
    return { ops: r.rows, elapsedMs: r.elapsedMs, perSec: r.perSec, sqliteVersion: r.sqliteVersion };
  }
  if (harness.etcdEndpoint === undefined) throw new Error('etcd harness has no endpoint');
  const r = await rawEtcdPuts({
    endpoint: harness.etcdEndpoint,
    run,
    durationMs: cfg.rawDurationMs,
    inFlight: cfg.rawEtcdInFlight,
    value,
  });
  return { ops: r.rows, elapsedMs: r.elapsedMs, perSec: r.perSec };
}

function ceilingDescription(harness: BackendHarness, cfg: StorageBenchConfig): string {
  return harness.name === 'sqlite'
    ? `batched ${harness.sqliteDriver ?? 'better-sqlite3'} inserts (${cfg.rawSqliteBatchRows} rows/txn, WAL, synchronous=FULL, fresh file)`
    : `raw etcd3 puts, ${cfg.rawEtcdInFlight} in flight`;
}

export async function measureBackend(
  harness: BackendHarness,
  cfg: StorageBenchConfig,
  log: Log,
): Promise<BackendResult> {
  const { storage, name } = harness;
  if (!cfg.writerCounts.includes(cfg.ceilingWriters)) {
    throw new RangeError(`ceilingWriters ${cfg.ceilingWriters} is not among writerCounts`);
  }

  // Let the JIT, connection pools and the store's first pages settle before anything is timed.
  const warmup = new ConfigMapFactory('bench-warmup', cfg.objectBytes);
  await populate(storage, warmup, Math.min(500, cfg.listObjects), 16);

  const rawValue = Buffer.from(JSON.stringify(warmup.make(0)));
  const writeRuns = new Map<number, RunCount[]>(cfg.writerCounts.map((c) => [c, []]));
  const ceilingRuns: RunCount[] = [];
  const ratios: number[] = [];
  let sqliteVersion: string | undefined;

  // Runs are the outer loop so each writer count and the ceiling sample the machine at nearby
  // moments; paired with a back-to-back ceiling run, drift (thermal, neighbours) mostly cancels.
  for (let run = 0; run < cfg.runs; run++) {
    let atCeilingWriters = 0;
    for (const writers of cfg.writerCounts) {
      const factory = new ConfigMapFactory(`bench-w${writers}-r${run}`, cfg.objectBytes);
      const cpu = process.cpuUsage();
      const r = await runLoad({
        concurrency: writers,
        durationMs: cfg.writeDurationMs,
        op: (seq) => storage.create(factory.keyOf(seq), factory.make(seq)),
      });
      writeRuns.get(writers)!.push({ ops: r.ops, elapsedMs: r.elapsedMs, cpuMs: cpuMsSince(cpu) });
      if (writers === cfg.ceilingWriters) atCeilingWriters = r.opsPerSec;
      log(`${name}: run ${run + 1}/${cfg.runs} writes x${writers}: ${fmtRate(r.opsPerSec)}`);
    }
    const c = await measureCeiling(harness, cfg, run, rawValue);
    sqliteVersion ??= c.sqliteVersion;
    ceilingRuns.push({ ops: c.ops, elapsedMs: c.elapsedMs });
    ratios.push(atCeilingWriters / c.perSec);
    log(`${name}: run ${run + 1}/${cfg.runs} raw ceiling: ${fmtRate(c.perSec)}`);
  }

  const listed = new ConfigMapFactory('bench-list', cfg.objectBytes);
  const pop = await populate(storage, listed, cfg.listObjects, cfg.populateConcurrency);
  log(`${name}: populated ${cfg.listObjects} objects in ${(pop.elapsedMs / 1000).toFixed(1)} s`);

  const readRuns: RunCount[] = [];
  for (let run = 0; run < cfg.runs; run++) {
    const cpu = process.cpuUsage();
    const r = await runLoad({
      concurrency: cfg.readConcurrency,
      durationMs: cfg.readDurationMs,
      op: () => storage.get(listed.keyOf(Math.floor(Math.random() * cfg.listObjects))),
    });
    readRuns.push({ ops: r.ops, elapsedMs: r.elapsedMs, cpuMs: cpuMsSince(cpu) });
    log(`${name}: run ${run + 1}/${cfg.runs} point reads x${cfg.readConcurrency}: ${fmtRate(r.opsPerSec)}`);
  }

  const listMs: number[] = [];
  for (let run = 0; run < cfg.runs; run++) {
    const start = nowMs();
    const result = await storage.list(listed.prefix);
    const ms = nowMs() - start;
    if (result.items.length !== cfg.listObjects) {
      throw new Error(`${name}: list returned ${result.items.length} objects, expected ${cfg.listObjects}`);
    }
    listMs.push(ms);
    log(`${name}: run ${run + 1}/${cfg.runs} full list: ${ms.toFixed(0)} ms`);
  }

  const perSec = (runs: RunCount[]) => summarize(runs.map((r) => (r.ops * 1000) / r.elapsedMs));
  const cpuMicrosPerOp = (runs: RunCount[]) => summarize(runs.map((r) => ((r.cpuMs ?? 0) * 1000) / r.ops));
  const bytes = cfg.listObjects * listed.objectBytes;
  const ratio = summarize(ratios);
  const target = CEILING_TARGETS[name];
  return {
    backend: name,
    details: harness.details,
    objectBytes: listed.objectBytes,
    writes: cfg.writerCounts.map((writers) => ({
      concurrency: writers,
      perSec: perSec(writeRuns.get(writers)!),
      cpuMicrosPerOp: cpuMicrosPerOp(writeRuns.get(writers)!),
      runs: writeRuns.get(writers)!,
    })),
    reads: {
      concurrency: cfg.readConcurrency,
      perSec: perSec(readRuns),
      cpuMicrosPerOp: cpuMicrosPerOp(readRuns),
      runs: readRuns,
    },
    list: {
      objects: cfg.listObjects,
      bytes,
      populate: { ops: pop.ops, elapsedMs: pop.elapsedMs },
      seconds: summarize(listMs.map((ms) => ms / 1000)),
      objectsPerSec: summarize(listMs.map((ms) => (cfg.listObjects * 1000) / ms)),
      mbPerSec: summarize(listMs.map((ms) => bytes / 1e6 / (ms / 1000))),
    },
    ceiling: {
      kind: name === 'sqlite' ? 'sqlite-batched-insert' : 'etcd3-put',
      description: ceilingDescription(harness, cfg),
      perSec: perSec(ceilingRuns),
      runs: ceilingRuns,
      ...(sqliteVersion !== undefined ? { sqliteVersion } : {}),
    },
    ceilingRatio: { writers: cfg.ceilingWriters, ratio, target, met: ratio.median >= target },
  };
}
