#!/usr/bin/env node
// The whole control plane in one program: the API server and the controller manager, one process,
// the README's first command. Exit 2 on bad flags, 1 on a bad configuration or when either part
// cannot start (or the manager loses its lease, which in one process means another control plane
// on the same store took over).

import { ConfigurationError } from '../controllers/manager/config/index.ts';
import { componentName, namingProfile } from '../naming/profile.ts';
import { startControlPlane } from './control-plane.ts';
import { controlPlaneUsage, parseControlPlaneFlags } from './control-plane-flags.ts';
import { namingFromArgv } from './controller-manager-flags.ts';
import { FlagError, HelpRequested, VersionRequested } from './flag-parser.ts';
import { stopOnSignals } from './signals.ts';
import { startupVersionLine, versionOutput } from './version-output.ts';

const NAME = componentName(namingProfile('spec'), 'control-plane');

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let options: ReturnType<typeof parseControlPlaneFlags>;
  try {
    options = parseControlPlaneFlags(argv, NAME);
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
  process.stderr.write(startupVersionLine(NAME));
  const plane = await startControlPlane({
    ...options,
    controllerManager: { ...options.controllerManager, onLeadershipLost: () => process.exit(1) },
  });
  process.stdout.write(
    `${NAME} serving on ${plane.url}\n` +
      `To use it:\n  kubectl --kubeconfig ${plane.adminConfigPath} get namespaces\n`,
  );
  stopOnSignals(() => plane.stop());
}

main().catch((err: Error) => {
  const what = err instanceof ConfigurationError ? 'invalid configuration' : 'Error';
  process.stderr.write(`${what}: ${err.message}\n`);
  process.exit(1);
});
