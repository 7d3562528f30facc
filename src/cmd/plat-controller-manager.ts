#!/usr/bin/env node
// The controller manager program: flags, logging configured from them, then the configuration
// file to options, start, stop cleanly on SIGTERM or SIGINT. Exit 2 on bad flags; 1 on a bad
// configuration (with the field path), when the manager cannot start, or when it loses its lease
// (as upstream, so a supervisor restarts it).

import { ConfigurationError } from '../controllers/manager/config/index.ts';
import { startControllerManager } from '../controllers/manager/controller-manager.ts';
import { loggerFor } from '../machinery/logging/index.ts';
import { componentName, namingProfile } from '../naming/profile.ts';
import {
  type ControllerManagerCommandLine,
  controllerManagerCommandLine,
  controllerManagerUsage,
  namingFromArgv,
} from './controller-manager-flags.ts';
import { FlagError, HelpRequested, VersionRequested } from './flag-parser.ts';
import { applyLoggingFlags, configurationFields } from './logging-flags.ts';
import { stopOnSignals } from './signals.ts';
import { startupVersionLine, versionOutput } from './version-output.ts';

const NAME = componentName(namingProfile('spec'), 'controller-manager');
const log = loggerFor(`cmd/${NAME}`);

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let options: ReturnType<ControllerManagerCommandLine['options']>;
  try {
    const commandLine = controllerManagerCommandLine(argv, NAME);
    applyLoggingFlags(log, commandLine.flags, commandLine.values);
    options = commandLine.options();
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
  log.infoText(startupVersionLine(NAME).trimEnd());
  const { profile: _profile, ...shown } = options;
  log.v(1).info('Start-up configuration', configurationFields(shown));
  const manager = await startControllerManager({
    ...options,
    onLeadershipLost: () => process.exit(1),
  });
  if (manager.url !== '') log.info('Serving securely', { address: manager.url, paths: '/healthz,/metrics' });
  log.info('Started', { identity: manager.identity });
  stopOnSignals(() => manager.stop(), log);
}

main().catch((err: Error) => {
  log.error(err, err instanceof ConfigurationError ? 'invalid configuration' : 'command failed');
  process.exit(1);
});
