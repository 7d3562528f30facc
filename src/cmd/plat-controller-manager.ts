#!/usr/bin/env node
// The controller manager program: flags and configuration file to options, start, stop cleanly on
// SIGTERM or SIGINT. Exit 2 on bad flags; 1 on a bad configuration (with the field path), when the
// manager cannot start, or when it loses its lease (as upstream, so a supervisor restarts it).

import { ConfigurationError } from '../controllers/manager/config/index.ts';
import { startControllerManager } from '../controllers/manager/controller-manager.ts';
import { componentName, namingProfile } from '../naming/profile.ts';
import {
  controllerManagerUsage,
  namingFromArgv,
  parseControllerManagerFlags,
} from './controller-manager-flags.ts';
import { FlagError, HelpRequested, VersionRequested } from './flag-parser.ts';
import { stopOnSignals } from './signals.ts';
import { startupVersionLine, versionOutput } from './version-output.ts';

const NAME = componentName(namingProfile('spec'), 'controller-manager');

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let options: ReturnType<typeof parseControllerManagerFlags>;
  try {
    options = parseControllerManagerFlags(argv, NAME);
  } catch (err) {
    if (err instanceof HelpRequested) {
      process.stdout.write(controllerManagerUsage(NAME, namingFromArgv(argv)));
      process.exit(0);
    }
    if (err instanceof VersionRequested) {
      process.stdout.write(versionOutput(err.raw, namingFromArgv(argv)));
      process.exit(0);
    }
    if (err instanceof FlagError) {
      process.stderr.write(`Error: ${err.message}\nRun '${NAME} --help' for usage.\n`);
      process.exit(2);
    }
    throw err;
  }
  process.stderr.write(startupVersionLine(NAME));
  const manager = await startControllerManager({
    ...options,
    onLeadershipLost: () => process.exit(1),
  });
  process.stderr.write(
    `${NAME} started${manager.url === '' ? '' : `, serving /healthz and /metrics on ${manager.url}`}\n`,
  );
  stopOnSignals(() => manager.stop());
}

main().catch((err: Error) => {
  const what = err instanceof ConfigurationError ? 'invalid configuration' : 'Error';
  process.stderr.write(`${what}: ${err.message}\n`);
  process.exit(1);
});
