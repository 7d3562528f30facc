// A throwaway etcd cluster of several members on free loopback ports, for the failover test and
// the failover measurement. Each member runs Debian's etcd-server with default election settings
// (heartbeat 100 ms, election timeout 1 s), so a leader's death costs what it costs in production.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../testing/etcd-server.ts';

export interface ClusterMember {
  name: string;
  endpoint: string;
  /** Whether the process is still running (a killed member stays dead). */
  readonly alive: boolean;
  kill(): Promise<void>;
}

export interface EtcdCluster {
  members: ClusterMember[];
  endpoints: string[];
  /** The member every live member names as leader, once they agree. */
  leader(timeoutMs?: number): Promise<ClusterMember>;
  stop(): Promise<void>;
}

interface StatusAnswer {
  header?: { member_id?: string };
  leader?: string;
}

/** A member's own id and the leader it follows, through etcd's JSON gateway. */
async function status(endpoint: string): Promise<{ self: string; leader: string } | undefined> {
  try {
    const res = await fetch(`${endpoint}/v3/maintenance/status`, {
      method: 'POST',
      body: '{}',
      signal: AbortSignal.timeout(2000),
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as StatusAnswer;
    const self = body.header?.member_id;
    const leader = body.leader;
    if (self === undefined || leader === undefined || leader === '0') return undefined;
    return { self, leader };
  } catch {
    return undefined;
  }
}

export async function startEtcdCluster(size = 3): Promise<EtcdCluster> {
  execFileSync('etcd', ['--version'], { stdio: 'ignore' });
  const specs: { name: string; client: string; peer: string; dataDir: string }[] = [];
  for (let i = 0; i < size; i++) {
    specs.push({
      name: `m${i}`,
      client: `http://127.0.0.1:${await freePort()}`,
      peer: `http://127.0.0.1:${await freePort()}`,
      dataDir: mkdtempSync(join(tmpdir(), `apiserver-test-etcd-cluster-m${i}-`)),
    });
  }
  const initialCluster = specs.map((s) => `${s.name}=${s.peer}`).join(',');
  const children: ChildProcess[] = specs.map((s) =>
    spawn(
      'etcd',
      [
        `--name=${s.name}`,
        `--data-dir=${s.dataDir}`,
        `--listen-client-urls=${s.client}`,
        `--advertise-client-urls=${s.client}`,
        `--listen-peer-urls=${s.peer}`,
        `--initial-advertise-peer-urls=${s.peer}`,
        `--initial-cluster=${initialCluster}`,
        '--initial-cluster-state=new',
        '--initial-cluster-token=apiserver-test',
        '--log-level=error',
        '--logger=zap',
      ],
      { stdio: ['ignore', 'ignore', 'ignore'] },
    ),
  );
  const members: ClusterMember[] = specs.map((s, i) => {
    const child = children[i]!;
    return {
      name: s.name,
      endpoint: s.client,
      get alive() {
        return child.exitCode === null && child.signalCode === null;
      },
      async kill() {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      },
    };
  });
  const stop = async () => {
    await Promise.all(members.map((m) => m.kill()));
    for (const s of specs) rmSync(s.dataDir, { recursive: true, force: true });
  };
  const cluster: EtcdCluster = {
    members,
    endpoints: specs.map((s) => s.client),
    async leader(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const live = members.filter((m) => m.alive);
        const answers = await Promise.all(live.map((m) => status(m.endpoint)));
        const first = answers[0];
        if (first !== undefined && answers.every((a) => a !== undefined && a.leader === first.leader)) {
          const index = answers.findIndex((a) => a?.self === first.leader);
          if (index >= 0) return live[index]!;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the etcd cluster agreed on no leader within ${timeoutMs} ms`);
    },
    stop,
  };
  try {
    await cluster.leader();
  } catch (err) {
    await stop();
    throw err;
  }
  return cluster;
}
