// Node IPAM's configuration rules. Upstream checks most of them only when the IPAM controller
// starts (and stops the manager if they fail); they are checked here with the rest so that a bad
// file is refused before anything runs, with the controller's messages: the service CIDRs must be
// CIDRs and of two families, and with --allocate-node-cidrs the cluster CIDRs and mask sizes must fit.

import { isIPv4, isIPv6 } from 'node:net';
import { type FieldError, invalid, newPath } from '../../../machinery/field-errors.ts';
import { CM_FIELD } from '../../../naming/index.ts';
import type { PlatControllerManagerConfiguration } from './types-controllers.ts';

/** 4 or 6 for a CIDR (Go's ParseCIDR), null otherwise. */
export function cidrFamily(text: string): 4 | 6 | null {
  const slash = text.indexOf('/');
  if (slash < 0) return null;
  const ip = text.slice(0, slash);
  const bits = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return null;
  const family = isIPv4(ip) ? 4 : isIPv6(ip) ? 6 : null;
  if (family === null) return null;
  return Number(bits) <= (family === 4 ? 32 : 128) ? family : null;
}

export function validateNodeIPAM(c: PlatControllerManagerConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  const ipam = c.NodeIPAMController;
  const path = newPath('NodeIPAMController');
  const primary = ipam.ServiceCIDR.trim() === '' ? undefined : cidrFamily(ipam.ServiceCIDR.trim());
  const secondary =
    ipam.SecondaryServiceCIDR.trim() === '' ? undefined : cidrFamily(ipam.SecondaryServiceCIDR.trim());
  if (primary === null)
    errs.push(invalid(path.child('ServiceCIDR'), ipam.ServiceCIDR, 'must be a valid CIDR'));
  if (secondary === null) {
    errs.push(invalid(path.child('SecondaryServiceCIDR'), ipam.SecondaryServiceCIDR, 'must be a valid CIDR'));
  }
  if (primary && secondary && primary === secondary) {
    errs.push(
      invalid(
        path.child('SecondaryServiceCIDR'),
        ipam.SecondaryServiceCIDR,
        'serviceCIDR and secondaryServiceCIDR are not dualstack (from different IPfamiles)',
      ),
    );
  }
  const shared = c[CM_FIELD.cloudShared];
  if (!shared.AllocateNodeCIDRs) return errs;
  const sharedPath = newPath(CM_FIELD.cloudShared);
  if (shared.CIDRAllocatorType === 'CloudAllocator') {
    errs.push(
      invalid(
        sharedPath.child('CIDRAllocatorType'),
        shared.CIDRAllocatorType,
        "--cidr-allocator-type is set to 'CloudAllocator' but cloud provider is not configured",
      ),
    );
  }
  const clusterPath = sharedPath.child('ClusterCIDR');
  const families: (4 | 6)[] = [];
  for (const part of shared.ClusterCIDR.trim().split(',')) {
    const f = cidrFamily(part.trim());
    if (f === null) {
      errs.push(invalid(clusterPath, shared.ClusterCIDR, `invalid CIDR address: ${part}`));
      return errs;
    }
    families.push(f);
  }
  const dual = families.includes(4) && families.includes(6);
  if (families.length > 1 && !dual) {
    errs.push(
      invalid(
        clusterPath,
        shared.ClusterCIDR,
        `len of ClusterCIDRs==${families.length} and they are not configured as dual stack (at least one from each IPFamily`,
      ),
    );
  } else if (families.length > 2) {
    errs.push(
      invalid(
        clusterPath,
        shared.ClusterCIDR,
        `length of clusterCIDRs is:${families.length} more than max allowed of 2`,
      ),
    );
  }
  const mask = (name: 'NodeCIDRMaskSize' | 'NodeCIDRMaskSizeIPv4' | 'NodeCIDRMaskSizeIPv6', detail: string) =>
    errs.push(invalid(path.child(name), ipam[name], detail));
  if (families.length > 1) {
    if (ipam.NodeCIDRMaskSize !== 0)
      mask('NodeCIDRMaskSize', 'usage of --node-cidr-mask-size is not allowed with dual-stack clusters');
  } else if (ipam.NodeCIDRMaskSize !== 0) {
    if (ipam.NodeCIDRMaskSizeIPv4 !== 0 || ipam.NodeCIDRMaskSizeIPv6 !== 0) {
      mask(
        'NodeCIDRMaskSize',
        'usage of --node-cidr-mask-size-ipv4 and --node-cidr-mask-size-ipv6 is not allowed if --node-cidr-mask-size is set. For dual-stack clusters please unset it and use IPFamily specific flags',
      );
    }
  } else {
    if (ipam.NodeCIDRMaskSizeIPv4 !== 0 && families[0] === 6) {
      mask(
        'NodeCIDRMaskSizeIPv4',
        'usage of --node-cidr-mask-size-ipv4 is not allowed for a single-stack IPv6 cluster',
      );
    }
    if (ipam.NodeCIDRMaskSizeIPv6 !== 0 && families[0] === 4) {
      mask(
        'NodeCIDRMaskSizeIPv6',
        'usage of --node-cidr-mask-size-ipv6 is not allowed for a single-stack IPv4 cluster',
      );
    }
  }
  return errs;
}
