// A controller's world for tests: an API server started in-process on a fresh data directory, the
// real REST client as its admin, a shared informer factory over it, and the ControllerContext a
// manager would hand a controller (spec naming, the client's CA, a log that keeps its lines).
// stop() ends the controllers, the informers, the client and the server in that order.

import { restOptionsFromPlatconfig } from '../../client/config.ts';
import { SharedInformerFactory } from '../../client/informers/factory.ts';
import { RestClient } from '../../client/rest-client.ts';
import { namingProfile } from '../../naming/profile.ts';
import type { ServerOptions } from '../../server/options.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/http-client.ts';
import type { ControllerContext, ControllerDescriptor, RunningController } from '../controller.ts';

export interface LogLine {
  level: 'info' | 'error';
  msg: string;
  fields?: Record<string, unknown>;
}

export interface ControllerHarness {
  api: TestApiServer;
  client: RestClient;
  informers: SharedInformerFactory;
  caPem: string;
  logs: LogLine[];
  /** The context a manager would give a controller, with `config` as its configuration. */
  context(config?: unknown): ControllerContext;
  /** Starts a descriptor's controller and the informers it asked for. */
  start(d: ControllerDescriptor, config?: unknown): Promise<RunningController>;
  stop(): Promise<void>;
}

export async function startControllerHarness(over: Partial<ServerOptions> = {}): Promise<ControllerHarness> {
  const api = await startTestApiServer(over);
  const opts = restOptionsFromPlatconfig(api.server.adminConfigPath);
  // No client-side rate limit: tests create objects in bursts.
  const client = new RestClient({ ...opts, qps: -1 });
  const informers = new SharedInformerFactory(client);
  const abort = new AbortController();
  const running: RunningController[] = [];
  const logs: LogLine[] = [];
  const log = {
    info: (msg: string, fields?: Record<string, unknown>) => logs.push({ level: 'info', msg, fields }),
    error: (msg: string, fields?: Record<string, unknown>) => logs.push({ level: 'error', msg, fields }),
  };
  const h: ControllerHarness = {
    api,
    client,
    informers,
    caPem: opts.caPem ?? '',
    logs,
    context: (config = {}) => ({
      client,
      informers,
      config,
      naming: namingProfile('spec'),
      clientCA: opts.caPem,
      signal: abort.signal,
      log,
    }),
    async start(d, config) {
      const r = await d.start(h.context(config));
      running.push(r);
      informers.start();
      return r;
    },
    async stop() {
      abort.abort();
      await Promise.all(running.map((r) => r.stop()));
      informers.stop();
      client.close();
      await api.stop();
    },
  };
  return h;
}
