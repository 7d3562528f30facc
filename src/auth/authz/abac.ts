// The ABAC authorizer (--authorization-mode=ABAC, --authorization-policy-file): a file of policy
// objects, one JSON object per line, each allowing a subject some requests; the first policy that
// matches allows, none is no opinion ("No policy matched."). Read once at start; a line that does
// not decode stops the server with the file and its line number, as upstream reports it.
// Policies carry `abac.authorization.<label domain>/v1beta1` (the upstream name is read too);
// lines without apiVersion and kind are the old unversioned format, converted as upstream does.
// Matching is upstream's: user and group (`*` matching any authenticated subject), read-only
// policies only allowing get/list/watch, namespace/resource/apiGroup with `*`, and non-resource
// paths exactly, by `*`, or by a prefix ending in `*`.

import { readFileSync } from 'node:fs';
import { type NamingProfile, namingProfile } from '../../naming/profile.ts';
import type { UserInfo } from '../authn/types.ts';
import { GROUP_AUTHENTICATED } from '../authn/types.ts';
import type { Attributes, Authorizer, RuleResolver, RulesResult, Verdict } from './types.ts';

export interface AbacPolicy {
  user: string;
  group: string;
  readonly: boolean;
  apiGroup: string;
  resource: string;
  namespace: string;
  nonResourcePath: string;
}

const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The ABAC group of a profile: `abac.authorization.<label domain>`. */
export function abacGroup(profile: NamingProfile): string {
  return `abac.authorization.${profile.labelDomain}`;
}

class PolicyLineError extends Error {}

function str(d: Dict, key: string): string {
  const v = d[key];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string')
    throw new PolicyLineError(
      `json: cannot unmarshal ${typeof v} into Go struct field ${key} of type string`,
    );
  return v;
}

function bool(d: Dict, key: string): boolean {
  const v = d[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean')
    throw new PolicyLineError(`json: cannot unmarshal ${typeof v} into Go struct field ${key} of type bool`);
  return v;
}

/** One line's policy, converted to the one internal form. */
export function decodePolicyLine(line: string, profile: NamingProfile = namingProfile('spec')): AbacPolicy {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (err) {
    throw new PolicyLineError(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
  if (!isDict(raw)) throw new PolicyLineError("couldn't get version/kind; json parse error: not an object");
  const apiVersion = typeof raw.apiVersion === 'string' ? raw.apiVersion : '';
  const kind = typeof raw.kind === 'string' ? raw.kind : '';
  const groups = [abacGroup(profile), abacGroup(namingProfile('upstream'))];
  const known = groups.some((g) => apiVersion === `${g}/v1beta1`) && kind === 'Policy';
  // Upstream reads any line its scheme does not know (no version, no kind, another group) as the
  // unversioned format.
  if (!known) return fromUnversioned(raw);
  const spec = raw.spec ?? {};
  if (!isDict(spec))
    throw new PolicyLineError(
      'json: cannot unmarshal into Go struct field Policy.spec of type v1beta1.PolicySpec',
    );
  const p: AbacPolicy = {
    user: str(spec, 'user'),
    group: str(spec, 'group'),
    readonly: bool(spec, 'readonly'),
    apiGroup: str(spec, 'apiGroup'),
    resource: str(spec, 'resource'),
    namespace: str(spec, 'namespace'),
    nonResourcePath: str(spec, 'nonResourcePath'),
  };
  // In v1beta1 a `*` user or group means every authenticated subject.
  if (p.user === '*' || p.group === '*') {
    p.group = GROUP_AUTHENTICATED;
    p.user = '';
  }
  return p;
}

/** The unversioned format: empty fields are wildcards, and a rule covers every API group. */
function fromUnversioned(raw: Dict): AbacPolicy {
  const user = str(raw, 'user');
  const group = str(raw, 'group');
  const namespace = str(raw, 'namespace');
  const resource = str(raw, 'resource');
  const p: AbacPolicy = {
    user,
    group,
    readonly: bool(raw, 'readonly'),
    apiGroup: '*',
    namespace: namespace === '' ? '*' : namespace,
    resource: resource === '' ? '*' : resource,
    nonResourcePath: namespace === '' && resource === '' ? '*' : '',
  };
  if ((user === '' && group === '') || user === '*' || group === '*') {
    p.group = GROUP_AUTHENTICATED;
    if (user === '*' || group === '*') p.user = '';
  }
  return p;
}

/** Reads the policy file; throws upstream's message naming the file and the line. */
export function loadPolicyFile(path: string, profile?: NamingProfile): AbacPolicy[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(
      `open ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`,
    );
  }
  const policies: AbacPolicy[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((original, i) => {
    const line = original.trim();
    if (line === '' || line.startsWith('#')) return;
    try {
      policies.push(decodePolicyLine(line, profile));
    } catch (err) {
      throw new Error(
        `error reading policy file ${path}, line ${i + 1}: ${original}: ${(err as Error).message}`,
      );
    }
  });
  return policies;
}

function subjectMatches(p: AbacPolicy, user: UserInfo): boolean {
  let matched = false;
  if (p.user !== '') {
    if (p.user === '*') matched = true;
    else if (p.user === user.username) matched = true;
    else return false;
  }
  if (p.group !== '') {
    if (p.group === '*') matched = true;
    else if (user.groups.includes(p.group)) matched = true;
    else return false;
  }
  return matched;
}

function resourceMatches(p: AbacPolicy, a: Attributes): boolean {
  return (
    a.isResourceRequest &&
    (p.namespace === '*' || p.namespace === a.namespace) &&
    (p.resource === '*' || p.resource === a.resource) &&
    (p.apiGroup === '*' || p.apiGroup === a.apiGroup)
  );
}

function nonResourceMatches(p: AbacPolicy, a: Attributes): boolean {
  if (a.isResourceRequest) return false;
  const path = p.nonResourcePath;
  if (path === '*' || path === a.path) return true;
  return path.endsWith('*') && a.path.startsWith(path.replace(/\*+$/, ''));
}

export function policyMatches(p: AbacPolicy, a: Attributes): boolean {
  if (!subjectMatches(p, a.user)) return false;
  // Every policy allows reading; only a policy that is not read-only allows the rest.
  if (!READ_ONLY_VERBS.has(a.verb) && p.readonly) return false;
  return resourceMatches(p, a) || nonResourceMatches(p, a);
}

export class AbacAuthorizer implements Authorizer, RuleResolver {
  constructor(readonly policies: readonly AbacPolicy[]) {}

  static fromFile(path: string, profile?: NamingProfile): AbacAuthorizer {
    return new AbacAuthorizer(loadPolicyFile(path, profile));
  }

  authorize(a: Attributes): Verdict {
    for (const p of this.policies) if (policyMatches(p, a)) return { decision: 'allow', reason: '' };
    return { decision: 'noOpinion', reason: 'No policy matched.' };
  }

  /** The policies of the user in the namespace, as rules (read-only ones as get, list, watch). */
  rulesFor(user: UserInfo, namespace: string): RulesResult {
    const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
    for (const p of this.policies) {
      if (!subjectMatches(p, user) || (p.namespace !== '*' && p.namespace !== namespace)) continue;
      const verbs = p.readonly ? ['get', 'list', 'watch'] : ['*'];
      if (p.resource !== '')
        out.resourceRules.push({
          verbs,
          apiGroups: [p.apiGroup],
          resources: [p.resource],
          resourceNames: [],
        });
      if (p.nonResourcePath !== '')
        out.nonResourceRules.push({ verbs, nonResourceURLs: [p.nonResourcePath] });
    }
    return out;
  }
}
