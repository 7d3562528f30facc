// Sizes of the storage scenario. The full profile keeps both backends under ~3 minutes on two cores.

export interface StorageBenchConfig {
  /** Each figure is the median of this many runs. */
  runs: number;
  writerCounts: number[];
  /** The writer count compared against the raw ceiling; must be one of writerCounts. */
  ceilingWriters: number;
  writeDurationMs: number;
  readConcurrency: number;
  readDurationMs: number;
  listObjects: number;
  populateConcurrency: number;
  rawDurationMs: number;
  /** Rows per transaction for the raw SQLite ceiling: a few hundred amortises the fsync. */
  rawSqliteBatchRows: number;
  rawEtcdInFlight: number;
  /** Approximate serialised size of every object written. */
  objectBytes: number;
}

export const FULL: StorageBenchConfig = {
  runs: 3,
  writerCounts: [1, 16, 64],
  ceilingWriters: 64,
  writeDurationMs: 2000,
  readConcurrency: 64,
  readDurationMs: 2000,
  listObjects: 50_000,
  populateConcurrency: 64,
  rawDurationMs: 2000,
  rawSqliteBatchRows: 256,
  rawEtcdInFlight: 64,
  objectBytes: 1024,
};

export const QUICK: StorageBenchConfig = {
  ...FULL,
  writeDurationMs: 100,
  readDurationMs: 100,
  listObjects: 200,
  rawDurationMs: 100,
};

/** Targets for "writes at ceilingWriters as a share of the raw ceiling". */
export const CEILING_TARGETS = { sqlite: 0.5, etcd3: 0.7 } as const;
