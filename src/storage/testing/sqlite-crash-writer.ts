// Child process for the crash test: writes as fast as it can from many concurrent loops and prints
// one line per acknowledged write. The parent kills it with SIGKILL mid-load.

import { openSqliteStorage } from '../sqlite/index.ts';

const path = process.argv[2];
if (!path) throw new Error('usage: sqlite-crash-writer <db-path>');
const store = openSqliteStorage({ path });

async function loop(id: number): Promise<void> {
  for (let i = 0; ; i++) {
    const key = `/crash/w${id}/k${i}`;
    const created = await store.create(key, {
      metadata: { name: `k${i}` },
      data: { pad: 'p'.repeat(512), i },
    });
    process.stdout.write(`ack ${key} ${created.metadata?.resourceVersion}\n`);
    if (i % 5 === 0) {
      const bumped = await store.guaranteedUpdate(
        '/crash/counter',
        ({ current }) => ({
          metadata: { name: 'counter' },
          data: { n: ((current?.data as { n?: number } | undefined)?.n ?? 0) + 1 },
        }),
        { ignoreNotFound: true },
      );
      process.stdout.write(`count ${(bumped.data as { n: number }).n} ${bumped.metadata?.resourceVersion}\n`);
    }
  }
}

for (let id = 0; id < 32; id++) void loop(id);
