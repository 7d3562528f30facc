// The garbage collector and the namespace controller read every resource but only ever look at
// metadata (uid, owners, finalizers, deletion), so, as client-go's metadata client, their reads ask
// the server for PartialObjectMetadata(List): a list of 10,000 objects then carries their metadata
// and not their specs. The requests are the ordinary resource client's (paths, query, errors);
// only the Accept header differs, with plain JSON as the fallback a server without the conversion
// answers (as ours does for delete-collection). Also where a controller's context gets its discovery and metadata client when the
// manager gave none (both built over the context's RestClient).

import type { ApiClient, GroupVersionResource, ResourceClient } from '../../client/api.ts';
import { Discovery } from '../../client/discovery.ts';
import { HttpResourceClient } from '../../client/resource-client.ts';
import { RestClient, type RestRequest } from '../../client/rest-client.ts';
import type { HttpWatchStream } from '../../client/watch-stream.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { UPSTREAM_ALIASES } from '../../naming/index.ts';
import type { ControllerContext, ResourceDiscovery } from '../controller.ts';

const accept = (as: 'PartialObjectMetadata' | 'PartialObjectMetadataList') =>
  `application/json;as=${as};g=${UPSTREAM_ALIASES.metaGroup};v=v1,application/json`;

const OBJECT_ACCEPT = accept('PartialObjectMetadata');
const LIST_ACCEPT = accept('PartialObjectMetadataList');

/**
 * An ApiClient whose get, list, watch and patch answers are PartialObjectMetadata (objects with
 * apiVersion, kind and metadata only), and delete-collections too where the server offers it.
 * Deletes of one object keep the usual answer.
 */
export class MetadataClient implements ApiClient {
  private readonly rest: RestClient;

  constructor(rest: RestClient) {
    // The resource client only calls call() and watch(); everything else (transport, codec,
    // rate limit) is the given client's own, so no second connection is opened.
    const view = Object.create(rest) as RestClient;
    view.call = <T>(req: RestRequest): Promise<T> => rest.call<T>(withAccept(req));
    view.watch = <T extends ApiObject>(req: RestRequest): Promise<HttpWatchStream<T>> =>
      rest.watch<T>({ ...req, accept: req.accept ?? OBJECT_ACCEPT });
    this.rest = view;
  }

  resource<T extends ApiObject = ApiObject>(
    gvr: GroupVersionResource,
    namespace?: string,
  ): ResourceClient<T> {
    return new HttpResourceClient<T>(this.rest, gvr, namespace);
  }
}

function withAccept(req: RestRequest): RestRequest {
  if (req.accept !== undefined) return req;
  if (req.method === 'GET') return { ...req, accept: req.name === undefined ? LIST_ACCEPT : OBJECT_ACCEPT };
  if (req.method === 'PATCH') return { ...req, accept: OBJECT_ACCEPT };
  // A delete-collection answers the deleted objects: their metadata is enough, where offered.
  if (req.method === 'DELETE' && req.name === undefined) return { ...req, accept: LIST_ACCEPT };
  return req;
}

/** The context's metadata client, else one over its RestClient, else its client (full objects). */
export function metadataClientOf(ctx: Pick<ControllerContext, 'client' | 'metadataClient'>): ApiClient {
  if (ctx.metadataClient !== undefined) return ctx.metadataClient;
  return ctx.client instanceof RestClient ? new MetadataClient(ctx.client) : ctx.client;
}

/** The context's discovery, else one over its RestClient; throws when neither can be had. */
export function discoveryOf(ctx: Pick<ControllerContext, 'client' | 'discovery'>): ResourceDiscovery {
  if (ctx.discovery !== undefined) return ctx.discovery;
  if (ctx.client instanceof RestClient) return new Discovery(ctx.client);
  throw new Error('no discovery: the controller context has neither discovery nor a REST client');
}
