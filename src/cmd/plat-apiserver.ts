#!/usr/bin/env node
// The API server program: flags to options, logging configured from them, start, print how to
// reach it, stop cleanly on SIGTERM or SIGINT. Exit 2 on bad flags, 1 when the server cannot start.

import { loggerFor } from '../machinery/logging/index.ts';
import { componentName, namingProfile } from '../naming/profile.ts';
import { startServer } from '../server/server.ts';
import { apiserverFlagSpecs, apiserverUsage, serverOptionsFrom } from './apiserver-flags.ts';
import { FlagError, HelpRequested, parseFlagsGiven, VersionRequested } from './flag-parser.ts';
import { applyLoggingFlags, configurationFields, withLoggingFlags } from './logging-flags.ts';
import { stopOnSignals } from './signals.ts';
import { namingForVersion, startupVersionLine, versionOutput } from './version-output.ts';

const NAME = componentName(namingProfile('spec'), 'apiserver');
const log = loggerFor(`cmd/${NAME}`);

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let options: ReturnType<typeof serverOptionsFrom>;
  try {
    const flags = withLoggingFlags(apiserverFlagSpecs());
    const { values, given } = parseFlagsGiven(argv, NAME, flags);
    applyLoggingFlags(log, flags, values);
    options = serverOptionsFrom(values, given);
  } catch (err) {
    if (err instanceof HelpRequested) {
      process.stdout.write(apiserverUsage(NAME));
      process.exit(0);
    }
    if (err instanceof VersionRequested) {
      process.stdout.write(versionOutput(err.raw, namingForVersion(argv)));
      process.exit(0);
    }
    if (err instanceof FlagError) {
      process.stderr.write(`Error: ${err.message}\nRun '${NAME} --help' for usage.\n`);
      process.exit(2);
    }
    throw err;
  }
  log.infoText(startupVersionLine(NAME).trimEnd());
  log.v(1).info('Start-up configuration', configurationFields(options));
  const server = await startServer(options);
  await server.ready;
  process.stdout.write(
    `${NAME} serving on ${server.url}\n` +
      `To use it:\n  kubectl --kubeconfig ${server.adminConfigPath} get namespaces\n`,
  );
  stopOnSignals(() => server.stop(), log);
}

main().catch((err: Error) => {
  // As upstream's cli.Run once logging is set up.
  log.error(err, 'command failed');
  process.exit(1);
});
