// Where a result was measured. Numbers from different machines are not comparable, so every
// results file carries this and the report prints it above the table.

import os from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryBytes: number;
  nodeVersion: string;
  platform: string;
  arch: string;
  osRelease: string;
}

export function describeMachine(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() || 'unknown',
    // availableParallelism honours cgroup/affinity limits that cpus().length ignores.
    cores: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    memoryBytes: os.totalmem(),
    nodeVersion: process.version,
    platform: os.platform(),
    arch: os.arch(),
    osRelease: os.release(),
  };
}

export function formatMachine(m: MachineInfo): string {
  const gib = (m.memoryBytes / 1024 ** 3).toFixed(1);
  return `${m.cpuModel}, ${m.cores} cores, ${gib} GiB RAM, Node ${m.nodeVersion}, ${m.platform}/${m.arch} ${m.osRelease}`;
}
