// The Node authorizer (upstream's NodeAuthorizer, with AuthorizeNodeWithSelectors, GA since 1.34):
// a node agent (system:node:<name> in system:nodes) reads the Secrets, ConfigMaps, claims, volumes
// and service accounts only when the graph links them to a Pod bound to it; it reads its own Node
// and the Pods bound to it (a list or watch only with `spec.nodeName=<itself>`); its Lease and
// CSINode only by its own name; creates, updates and deletions whose object the authorizer cannot
// see are allowed here and narrowed by the NodeRestriction admission plugin. Everything else is
// checked against the system:node rules. It never denies: a request it does not allow goes on to
// the next authorizer (RBAC, where the system:node role is bound to no one), with the reason.

import { nodeLeaseNamespace } from '../../../naming/node-agents.ts';
import { groupName, type NamingProfile } from '../../../naming/profile.ts';
import type { UserInfo } from '../../authn/types.ts';
import type { CompiledRule } from '../rbac/rules.ts';
import type { Attributes, Authorizer, RuleResolver, RulesResult, Verdict } from '../types.ts';
import type { Graph, VertexType } from './graph.ts';
import { nodeIdentity } from './identity.ts';
import { nodeRules, nodeRulesAllow, nodeRulesFor } from './rules.ts';

const ALLOW: Verdict = { decision: 'allow', reason: '' };
const noOpinion = (reason: string): Verdict => ({ decision: 'noOpinion', reason });

type Handler = (node: string, a: Attributes) => Verdict;

export class NodeAuthorizer implements Authorizer, RuleResolver {
  private readonly rules: readonly CompiledRule[];
  private readonly leaseNamespace: string;
  /** `<group>/<resource>` -> how requests for it are decided. */
  private readonly handlers: ReadonlyMap<string, Handler>;

  constructor(
    private readonly graph: Graph,
    profile: NamingProfile,
  ) {
    this.rules = nodeRules(profile);
    this.leaseNamespace = nodeLeaseNamespace(profile);
    const storage = groupName(profile, 'storage');
    const resource = groupName(profile, 'resource');
    this.handlers = new Map<string, Handler>([
      ['/secrets', (n, a) => this.readNamespaced(n, 'secret', a)],
      ['/configmaps', (n, a) => this.readNamespaced(n, 'configmap', a)],
      [
        '/persistentvolumeclaims',
        (n, a) => (a.subresource === 'status' ? this.statusUpdate(n, 'pvc', a) : this.get(n, 'pvc', a)),
      ],
      ['/persistentvolumes', (n, a) => this.get(n, 'pv', a)],
      [`${resource}/resourceclaims`, (n, a) => this.get(n, 'resourceclaim', a)],
      [`${storage}/volumeattachments`, (n, a) => this.get(n, 'volumeattachment', a)],
      ['/serviceaccounts', (n, a) => this.createToken(n, a)],
      [`${groupName(profile, 'coordination')}/leases`, (n, a) => this.lease(n, a)],
      [`${storage}/csinodes`, (n, a) => this.csiNode(n, a)],
      [`${resource}/resourceslices`, (n, a) => this.resourceSlice(n, a)],
      ['/nodes', (n, a) => this.nodeObject(n, a)],
      ['/pods', (n, a) => this.pod(n, a)],
    ]);
  }

  authorize(a: Attributes): Verdict {
    const node = nodeIdentity(a.user);
    if (node === undefined) return noOpinion('');
    if (node === '') return noOpinion(`unknown node for user ${JSON.stringify(a.user.username)}`);
    if (a.isResourceRequest) {
      const handler = this.handlers.get(`${a.apiGroup}/${a.resource}`);
      if (handler !== undefined) return handler(node, a);
    }
    return nodeRulesAllow(this.rules, a) ? ALLOW : noOpinion('');
  }

  rulesFor(user: UserInfo, _namespace: string): RulesResult {
    return nodeRulesFor(user);
  }

  /** get, list and watch of one named object in a namespace, linked to the node. */
  private readNamespaced(node: string, type: VertexType, a: Attributes): Verdict {
    if (a.verb !== 'get' && a.verb !== 'list' && a.verb !== 'watch') {
      return noOpinion('can only read resources of this type');
    }
    if (a.subresource !== '') return noOpinion('cannot read subresource');
    if (a.namespace === '') return noOpinion('can only read namespaced object of this type');
    return this.linked(node, type, a);
  }

  private get(node: string, type: VertexType, a: Attributes): Verdict {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (a.subresource !== '') return noOpinion('cannot get subresource');
    return this.linked(node, type, a);
  }

  private statusUpdate(node: string, type: VertexType, a: Attributes): Verdict {
    if (a.verb !== 'update' && a.verb !== 'patch') return noOpinion('can only get/update/patch this type');
    return this.linked(node, type, a);
  }

  private linked(node: string, type: VertexType, a: Attributes): Verdict {
    if (a.name === '') return noOpinion('No Object name found');
    return this.hasPath(node, type, a);
  }

  private hasPath(node: string, type: VertexType, a: Attributes): Verdict {
    const path = this.graph.pathToNode(node, type, a.namespace, a.name);
    return path.found ? ALLOW : noOpinion(`no relationship found between node '${node}' and this object`);
  }

  private createToken(node: string, a: Attributes): Verdict {
    if (a.verb !== 'create' || a.name === '') {
      return noOpinion('can only create tokens for individual service accounts');
    }
    if (a.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
    return this.hasPath(node, 'serviceAccount', a);
  }

  private lease(node: string, a: Attributes): Verdict {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) {
      return noOpinion('can only get, create, update, patch, or delete a node lease');
    }
    if (a.namespace !== this.leaseNamespace) {
      return noOpinion(
        `can only access leases in the ${JSON.stringify(this.leaseNamespace)} system namespace`,
      );
    }
    // A create carries no name here; NodeRestriction checks the object's.
    if (a.verb !== 'create' && a.name !== node) {
      return noOpinion('can only access node lease with the same name as the requesting node');
    }
    return ALLOW;
  }

  private csiNode(node: string, a: Attributes): Verdict {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) {
      return noOpinion('can only get, create, update, patch, or delete a CSINode');
    }
    if (a.subresource !== '') return noOpinion('cannot authorize CSINode subresources');
    if (a.verb !== 'create' && a.name !== node) {
      return noOpinion('can only access CSINode with the same name as the requesting node');
    }
    return ALLOW;
  }

  private resourceSlice(node: string, a: Attributes): Verdict {
    if (a.subresource !== '') return noOpinion('cannot authorize ResourceSlice subresources');
    switch (a.verb) {
      case 'create':
        return ALLOW;
      case 'get':
      case 'update':
      case 'patch':
      case 'delete':
        // No slice vertices are kept (ResourceSlices are not served): nothing links one to a node.
        return this.linked(node, 'resourceslice', a);
      case 'watch':
      case 'list':
      case 'deletecollection':
        if (selects(a, 'nodeName', node)) return ALLOW;
        return noOpinion('can only list/watch/deletecollection resourceslices with nodeName field selector');
      default:
        return noOpinion(
          'only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection',
        );
    }
  }

  private nodeObject(node: string, a: Attributes): Verdict {
    if (a.subresource === '') {
      switch (a.verb) {
        case 'create':
        case 'update':
        case 'patch':
          return ALLOW;
        case 'get':
        case 'list':
        case 'watch':
          // By name, not by the graph: an agent reads its Node before it has one.
          if (a.name === node) return ALLOW;
          if (a.name === '')
            return noOpinion(`node '${node}' cannot read all nodes, only its own Node object`);
          return noOpinion(`node '${node}' cannot read '${a.name}', only its own Node object`);
      }
    } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
      return ALLOW;
    }
    return noOpinion('');
  }

  private pod(node: string, a: Attributes): Verdict {
    switch (a.subresource) {
      case '':
        switch (a.verb) {
          case 'get':
            return this.get(node, 'pod', a);
          case 'list':
          case 'watch':
            if (selects(a, 'spec.nodeName', node)) return ALLOW;
            if (a.name !== '') return this.linked(node, 'pod', a);
            return noOpinion('can only list/watch pods with spec.nodeName field selector');
          case 'create':
          case 'delete':
            return ALLOW;
        }
        break;
      case 'status':
        if (a.verb === 'update' || a.verb === 'patch') return ALLOW;
        break;
      case 'eviction':
        if (a.verb === 'create') return ALLOW;
        break;
    }
    return noOpinion('');
  }
}

/** Whether the request's field selector holds `<field>=<value>` (one value, equality). */
function selects(a: Attributes, field: string, value: string): boolean {
  for (const r of a.fieldSelector ?? []) {
    if (r.key === field && r.operator === 'In' && r.values?.length === 1 && r.values[0] === value)
      return true;
  }
  return false;
}
