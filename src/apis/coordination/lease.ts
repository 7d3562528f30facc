// Lease: a holder identity with a duration, renewed by its holder (leader election, node heartbeats).

import { type FieldError, forbidden, invalid, newPath, notSupported } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { isQualifiedName } from '../../machinery/validation/names.ts';
import { groupName, type NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import type { ProtoMarkers, SchemaNode } from '../../schema/types.ts';
import { AGE_COLUMN, NAME_COLUMN } from '../printing.ts';
import { NAMESPACED_DEFAULTS } from '../strategy-defaults.ts';

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  leaseTransitions?: number;
  strategy?: string;
  preferredHolder?: string;
}

const microTime = (description: string, wire?: ProtoMarkers): SchemaNode => ({
  ref: 'MicroTime',
  description,
  ...wire,
});

/** Strategies upstream defines by a bare name; any other must be a domain-prefixed name. */
const LEASE_STRATEGIES = ['OldestEmulationVersion'];

function validateSpec(obj: ApiObject): FieldError[] {
  const spec = (obj.spec as LeaseSpec | undefined) ?? {};
  const errs: FieldError[] = [];
  const path = newPath('spec');
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds <= 0) {
    errs.push(
      invalid(path.child('leaseDurationSeconds'), spec.leaseDurationSeconds, 'must be greater than 0'),
    );
  }
  if (spec.leaseTransitions !== undefined && spec.leaseTransitions < 0) {
    errs.push(
      invalid(path.child('leaseTransitions'), spec.leaseTransitions, 'must be greater than or equal to 0'),
    );
  }
  if (typeof spec.strategy === 'string') {
    // Upstream nests the field name once more here: `spec.strategy.strategy`.
    const at = path.child('strategy', 'strategy');
    if (!spec.strategy.includes('/')) {
      if (!LEASE_STRATEGIES.includes(spec.strategy))
        errs.push(notSupported(at, spec.strategy, LEASE_STRATEGIES));
    } else {
      for (const msg of isQualifiedName(spec.strategy)) errs.push(invalid(at, spec.strategy, msg));
    }
  }
  if (spec.preferredHolder && !spec.strategy) {
    errs.push(forbidden(path.child('preferredHolder'), 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

export function leaseKind(profile: NamingProfile): KindDefinition {
  const group = groupName(profile, 'coordination');
  const schema = compileKindSchema({
    group,
    version: 'v1',
    kind: 'Lease',
    description:
      'A time-limited claim that one holder takes and renews, used for leader election and heartbeats.',
    properties: {
      spec: {
        type: 'object',
        goType: 'v1.LeaseSpec',
        description: 'Who holds the lease, for how long, and how it changes hands.',
        properties: {
          holderIdentity: {
            type: 'string',
            description: 'Who holds the lease now.',
            proto: 1,
            protoPointer: true,
          },
          leaseDurationSeconds: {
            type: 'integer',
            format: 'int32',
            description:
              'Seconds a candidate must wait after the last renewal before it may take the lease by force.',
            proto: 2,
            protoPointer: true,
          },
          acquireTime: microTime('When the current holder took the lease.', {
            proto: 3,
            protoPointer: true,
          }),
          renewTime: microTime('When the current holder last renewed the lease.', {
            proto: 4,
            protoPointer: true,
          }),
          leaseTransitions: {
            type: 'integer',
            format: 'int32',
            description: 'How many times the lease has passed from one holder to another.',
            proto: 5,
            protoPointer: true,
          },
          strategy: {
            type: 'string',
            goType: 'v1.CoordinatedLeaseStrategy',
            description: 'How coordinated leader election chooses the leader.',
            proto: 6,
            protoPointer: true,
          },
          preferredHolder: {
            type: 'string',
            description:
              'A better-suited holder; its presence tells the current holder to give the lease up.',
            proto: 7,
            protoPointer: true,
          },
        },
        proto: 2,
      },
    },
  });
  return {
    resource: {
      group,
      version: 'v1',
      resource: 'leases',
      singular: 'lease',
      kind: 'Lease',
      listKind: 'LeaseList',
      namespaced: true,
      verbs: STANDARD_VERBS,
      subresources: {},
    },
    schema,
    strategy: {
      ...NAMESPACED_DEFAULTS,
      validate: (obj) => [...schema.validate(obj), ...validateSpec(obj)],
      validateUpdate: () => [],
    },
    table: [
      NAME_COLUMN,
      {
        name: 'Holder',
        type: 'string',
        description: 'Who holds the lease now.',
        cell: (obj) => (obj.spec as LeaseSpec | undefined)?.holderIdentity ?? '',
      },
      AGE_COLUMN,
    ],
  };
}
