#!/usr/bin/env node
// The whole control plane in one program: the API server and the controller manager, one process,
// the README's first command. Exit 2 on bad flags, 1 on a bad configuration or when either part
// cannot start (or the manager loses its lease, which in one process means another control plane
// on the same store took over).

import { ConfigurationError } from '../controllers/manager/config/index.ts';
import { loggerFor } from '../machinery/logging/index.ts';
import { componentName, namingProfile } from '../naming/profile.ts';
import { startControlPlane } from './control-plane.ts';
import {
  type ControlPlaneCommandLine,
  controlPlaneCommandLine,
  controlPlaneUsage,
} from './control-plane-flags.ts';
import { namingFromArgv } from './controller-manager-flags.ts';
import { FlagError, HelpRequested, VersionRequested } from './flag-parser.ts';
import { applyLoggingFlags, configurationFields } from './logging-flags.ts';
import { stopOnSignals } from './signals.ts';
import { startupVersionLine, versionOutput } from './version-output.ts';

const NAME = componentName(namingProfile('spec'), 'control-plane');
const log = loggerFor(`cmd/${NAME}`);

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let options: ReturnType<ControlPlaneCommandLine['options']>;
  try {
    const commandLine = controlPlaneCommandLine(argv, NAME);
    applyLoggingFlags(log, commandLine.flags, commandLine.values);
    options = commandLine.options();
  } catch (err) {
    if (err instanceof HelpRequested) {
      process.stdout.write(controlPlaneUsage(NAME, namingFromArgv(argv)));
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
  log.v(1).info('Start-up configuration', {
    ...configurationFields(options.server),
    simulatedNodes: options.simulatedNodes,
  });
  const plane = await startControlPlane({
    ...options,
    controllerManager: { ...options.controllerManager, onLeadershipLost: () => process.exit(1) },
  });
  process.stdout.write(
    `${NAME} serving on ${plane.url}\n` +
      `To use it:\n  kubectl --kubeconfig ${plane.adminConfigPath} get namespaces\n`,
  );
  stopOnSignals(() => plane.stop(), log);
}

main().catch((err: Error) => {
  log.error(err, err instanceof ConfigurationError ? 'invalid configuration' : 'command failed');
  process.exit(1);
});
