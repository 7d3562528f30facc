// Makes sure every active namespace has the service accounts it should (`default`), as upstream's
// serviceaccount controller: a namespace added or updated, or one of those accounts deleted,
// queues the namespace; its sync creates what is missing unless the namespace is gone or no longer
// Active. A create refused because the account exists or the namespace is terminating is done.

import type { ApiClient, Clock, SharedInformer } from '../../client/api.ts';
import { RateLimitingQueue } from '../../client/work-queue/rate-limiting-queue.ts';
import { runWorkers } from '../../client/work-queue/run-workers.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { ControllerLogger } from '../controller.ts';
import {
  hasStatusCause,
  isAlreadyExists,
  messageOf,
  NAMESPACE_TERMINATING_CAUSE,
  nameOf,
  namespaceOf,
  SERVICE_ACCOUNTS,
  waitForInformers,
  watchAll,
} from '../controller-support.ts';

export const DEFAULT_SERVICE_ACCOUNTS: readonly string[] = ['default'];

export interface ServiceAccountsControllerOptions {
  client: ApiClient;
  namespaces: SharedInformer;
  serviceAccounts: SharedInformer;
  log: ControllerLogger;
  /** The accounts every namespace gets; `default` when absent. */
  accounts?: readonly string[];
  clock?: Clock;
}

export class ServiceAccountsController {
  readonly queue: RateLimitingQueue<string>;
  private readonly accounts: readonly string[];
  private readonly unwatch: () => void;

  constructor(private readonly o: ServiceAccountsControllerOptions) {
    this.accounts = o.accounts ?? DEFAULT_SERVICE_ACCOUNTS;
    this.queue = new RateLimitingQueue<string>({ clock: o.clock, name: 'serviceaccount' });
    const enqueueNamespace = (ns: ApiObject) => {
      const name = nameOf(ns);
      if (name !== '') this.queue.add(name);
    };
    this.unwatch = watchAll([
      [o.namespaces, { add: enqueueNamespace, update: (_old, ns) => enqueueNamespace(ns) }],
      [
        o.serviceAccounts,
        {
          delete: (sa) => {
            const ns = namespaceOf(sa);
            if (ns !== '' && this.accounts.includes(nameOf(sa))) this.queue.add(ns);
          },
        },
      ],
    ]);
  }

  /** Creates the missing accounts of namespace `name`; throws to be retried. */
  async sync(name: string): Promise<void> {
    const ns = this.o.namespaces.lister.get(name);
    if (ns === undefined) return;
    const phase = (ns.status as { phase?: unknown } | undefined)?.phase;
    if (phase !== 'Active') return;
    const failures: string[] = [];
    for (const account of this.accounts) {
      if (this.o.serviceAccounts.lister.get(`${name}/${account}`) !== undefined) continue;
      try {
        await this.o.client
          .resource(SERVICE_ACCOUNTS, name)
          .create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: account, namespace: name } });
      } catch (err) {
        if (isAlreadyExists(err) || hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) continue;
        failures.push(messageOf(err));
      }
    }
    if (failures.length > 0) throw new Error(failures.join('; '));
  }

  async run(signal: AbortSignal): Promise<void> {
    await waitForInformers([this.o.namespaces, this.o.serviceAccounts], signal);
    await runWorkers(this.queue, 1, (ns) => this.sync(ns), signal, {
      onError: (ns, err) =>
        this.o.log.error('syncing namespace failed', { namespace: ns, err: messageOf(err) }),
    });
  }

  stop(): void {
    this.unwatch();
    this.queue.shutDown();
  }
}
