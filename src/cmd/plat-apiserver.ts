#!/usr/bin/env node
// The API server program: flags to options, start, print how to reach it, stop cleanly on SIGTERM
// or SIGINT. Exit 2 on bad flags, 1 when the server cannot start.

import { componentName, namingProfile } from '../naming/profile.ts';
import { startServer } from '../server/server.ts';
import { apiserverUsage, FlagError, HelpRequested, parseApiserverFlags } from './apiserver-flags.ts';
import { VersionRequested } from './flag-parser.ts';
import { stopOnSignals } from './signals.ts';
import { namingForVersion, startupVersionLine, versionOutput } from './version-output.ts';

const NAME = componentName(namingProfile('spec'), 'apiserver');

async function main(): Promise<void> {
  let options: ReturnType<typeof parseApiserverFlags>;
  try {
    options = parseApiserverFlags(process.argv.slice(2), NAME);
  } catch (err) {
    if (err instanceof HelpRequested) {
      process.stdout.write(apiserverUsage(NAME));
      process.exit(0);
    }
    if (err instanceof VersionRequested) {
      process.stdout.write(versionOutput(err.raw, namingForVersion(process.argv.slice(2))));
      process.exit(0);
    }
    if (err instanceof FlagError) {
      process.stderr.write(`Error: ${err.message}\nRun '${NAME} --help' for usage.\n`);
      process.exit(2);
    }
    throw err;
  }
  process.stderr.write(startupVersionLine(NAME));
  const server = await startServer(options);
  await server.ready;
  process.stdout.write(
    `${NAME} serving on ${server.url}\n` +
      `To use it:\n  kubectl --kubeconfig ${server.adminConfigPath} get namespaces\n`,
  );
  stopOnSignals(() => server.stop());
}

main().catch((err: Error) => {
  process.stderr.write(`Error: ${err.message}\n`);
  process.exit(1);
});
