// The columns of `kubectl get nodes` as upstream's printer builds them: the Ready condition as the
// status (with SchedulingDisabled for a cordoned node), roles from the role labels, and with
// `-o wide` the addresses and what the node reports about its system.

import type { TableColumn } from '../../codec/table.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { nodeRoleLabel, nodeRoleLabelPrefix } from '../../naming/node-roles.ts';
import { NODE_AGENT_VERSION_FIELD } from '../../naming/node-wire-fields.ts';
import type { NamingProfile } from '../../naming/profile.ts';
import { AGE_COLUMN, NAME_COLUMN } from '../printing.ts';
import { specOf, statusOf } from './node-validation.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `Ready`, `NotReady` or `Unknown` (no Ready condition), then `SchedulingDisabled` when cordoned. */
export function nodeStatusCell(node: ApiObject): string {
  const out: string[] = [];
  const conditions = Array.isArray(statusOf(node).conditions) ? (statusOf(node).conditions as unknown[]) : [];
  // The last condition of a type wins, as a map built from the list would keep it.
  const ready = conditions.filter((c): c is Obj => isObj(c) && c.type === 'Ready').at(-1);
  if (ready !== undefined) out.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (out.length === 0) out.push('Unknown');
  if (specOf(node).unschedulable === true) out.push('SchedulingDisabled');
  return out.join(',');
}

/** Roles named by `node-role.<domain>/<role>` keys and the older `<domain>/role` value, sorted. */
export function nodeRoles(node: ApiObject, profile: NamingProfile): string[] {
  const prefix = nodeRoleLabelPrefix(profile);
  const legacy = nodeRoleLabel(profile);
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith(prefix)) {
      const role = k.slice(prefix.length);
      if (role !== '') roles.add(role);
    } else if (k === legacy && v !== '') {
      roles.add(v);
    }
  }
  return [...roles].sort();
}

function address(node: ApiObject, type: string): string {
  for (const a of Array.isArray(statusOf(node).addresses) ? (statusOf(node).addresses as unknown[]) : []) {
    if (isObj(a) && a.type === type) return String(a.address ?? '');
  }
  return '<none>';
}

function info(node: ApiObject, field: string): string {
  const nodeInfo = statusOf(node).nodeInfo;
  const v = isObj(nodeInfo) ? nodeInfo[field] : undefined;
  return typeof v === 'string' ? v : '';
}

const ADDRESSES =
  'Addresses at which the node can be reached, taken from the cloud provider when it has them.';

export function nodeColumns(profile: NamingProfile): TableColumn[] {
  return [
    NAME_COLUMN,
    {
      name: 'Status',
      type: 'string',
      description: 'Whether the node is ready, and whether it is cordoned.',
      cell: nodeStatusCell,
    },
    {
      name: 'Roles',
      type: 'string',
      description: "Roles the node's labels give it.",
      cell: (obj) => nodeRoles(obj, profile).join(',') || '<none>',
    },
    AGE_COLUMN,
    {
      name: 'Version',
      type: 'string',
      description: 'Version of the node agent running on the node.',
      cell: (obj) => info(obj, NODE_AGENT_VERSION_FIELD),
    },
    {
      name: 'Internal-IP',
      type: 'string',
      priority: 1,
      description: ADDRESSES,
      cell: (obj) => address(obj, 'InternalIP'),
    },
    {
      name: 'External-IP',
      type: 'string',
      priority: 1,
      description: ADDRESSES,
      cell: (obj) => address(obj, 'ExternalIP'),
    },
    {
      name: 'OS-Image',
      type: 'string',
      priority: 1,
      description:
        "Operating system name read from the node's /etc/os-release, such as Debian GNU/Linux 12 (bookworm).",
      cell: (obj) => info(obj, 'osImage') || '<unknown>',
    },
    {
      name: 'Kernel-Version',
      type: 'string',
      priority: 1,
      description: 'Kernel release as `uname -r` prints it on the node, such as 6.1.0-18-amd64.',
      cell: (obj) => info(obj, 'kernelVersion') || '<unknown>',
    },
    {
      name: 'Container-Runtime',
      type: 'string',
      priority: 1,
      description:
        'Container runtime name and version as the runtime API gives them, such as containerd://1.7.0.',
      cell: (obj) => info(obj, 'containerRuntimeVersion') || '<unknown>',
    },
  ];
}
