// Reading `--audit-policy-file`: YAML or JSON text holding one Policy (the first document of a
// YAML stream, as upstream's YAML-to-JSON step reads). Decoding behaves as upstream's loader:
// a value of the wrong type fails; unknown or repeated fields only warn, since upstream retries
// leniently after a strict failure; an apiVersion other than the audit group's v1 fails; then
// upstream's validation runs (messages name the field path) and a policy without rules is refused.
// Errors carry upstream's wording, with `: from file <path>` when a file was read.

import { readFileSync } from 'node:fs';
import { isMap, isNode, isScalar, isSeq, parseAllDocuments } from 'yaml';
import {
  aggregateMessage,
  type FieldError,
  type FieldPath,
  invalid,
  newPath,
  notSupported,
  required,
} from '../../machinery/field-errors.ts';
import { isDNS1123Subdomain } from '../../machinery/validation/names.ts';
import { type NamingProfile, namingProfile } from '../../naming/index.ts';
import {
  AUDIT_LEVELS,
  AUDIT_POLICY_KIND,
  AUDIT_STAGES,
  auditGroup,
  type GroupResources,
  isAuditPolicyApiVersion,
  type Policy,
  type PolicyRule,
} from './policy-types.ts';

export class AuditPolicyError extends Error {
  override name = 'AuditPolicyError';
}

export interface LoadedPolicy {
  policy: Policy;
  /** Strict-decoding complaints that upstream logs as a warning before decoding leniently. */
  warnings: string[];
}

/** Reads and checks the file; throws AuditPolicyError with upstream's message. */
export function loadAuditPolicyFile(
  path: string,
  profile: NamingProfile = namingProfile('spec'),
): LoadedPolicy {
  if (path === '') throw new AuditPolicyError('file path not specified');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new AuditPolicyError(`failed to read file path ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
  try {
    return loadAuditPolicy(text, profile);
  } catch (err) {
    if (err instanceof AuditPolicyError) throw new AuditPolicyError(`${err.message}: from file ${path}`);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding

type Shape =
  | { t: 'scalar'; js: 'string' | 'boolean'; go: string }
  | { t: 'list'; of: Shape; go: string }
  | { t: 'struct'; name: string; go: string; fields: Record<string, Shape> }
  | { t: 'any' };

const str = (go = 'string'): Shape => ({ t: 'scalar', js: 'string', go });
const bool: Shape = { t: 'scalar', js: 'boolean', go: 'bool' };
const strings: Shape = { t: 'list', of: str(), go: '[]string' };
const stages: Shape = { t: 'list', of: str('v1.Stage'), go: '[]v1.Stage' };

const GROUP_RESOURCES: Shape = {
  t: 'struct',
  name: 'GroupResources',
  go: 'v1.GroupResources',
  fields: { group: str(), resources: strings, resourceNames: strings },
};
const RULE: Shape = {
  t: 'struct',
  name: 'PolicyRule',
  go: 'v1.PolicyRule',
  fields: {
    level: str('v1.Level'),
    users: strings,
    userGroups: strings,
    verbs: strings,
    resources: { t: 'list', of: GROUP_RESOURCES, go: '[]v1.GroupResources' },
    namespaces: strings,
    nonResourceURLs: strings,
    omitStages: stages,
    omitManagedFields: { t: 'scalar', js: 'boolean', go: '*bool' },
  },
};
const POLICY: Shape = {
  t: 'struct',
  name: 'Policy',
  go: 'v1.Policy',
  fields: {
    apiVersion: str(),
    kind: str(),
    // ObjectMeta is not used by the policy; its content is not checked here.
    metadata: { t: 'any' },
    rules: { t: 'list', of: RULE, go: '[]v1.PolicyRule' },
    omitStages: stages,
    omitManagedFields: bool,
  },
};

interface DecodeState {
  /** The first type error, which is the one Go's decoder reports. */
  typeError?: string;
  unknown: string[];
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/**
 * `struct` and `goPath` build Go's `<Struct>.<dotted field path>`; `path` is the indexed path the
 * strict decoder names unknown fields with.
 */
function check(
  v: unknown,
  shape: Shape,
  struct: string,
  goPath: string,
  path: string,
  st: DecodeState,
): void {
  if (v === null || v === undefined || shape.t === 'any') return;
  const typeError = () => {
    st.typeError ??=
      goPath === ''
        ? `json: cannot unmarshal ${jsonType(v)} into Go value of type ${shape.go}`
        : `json: cannot unmarshal ${jsonType(v)} into Go struct field ${struct}.${goPath} of type ${shape.go}`;
  };
  if (shape.t === 'scalar') {
    if (typeof v !== shape.js) typeError();
    return;
  }
  if (shape.t === 'list') {
    if (!Array.isArray(v)) {
      typeError();
      return;
    }
    for (const [i, x] of v.entries()) check(x, shape.of, struct, goPath, `${path}[${i}]`, st);
    return;
  }
  if (typeof v !== 'object' || Array.isArray(v)) {
    typeError();
    return;
  }
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const sub = shape.fields[k];
    const p = path === '' ? k : `${path}.${k}`;
    if (sub === undefined) st.unknown.push(`unknown field ${JSON.stringify(p)}`);
    else check(x, sub, shape.name, goPath === '' ? k : `${goPath}.${k}`, p, st);
  }
}

/** The first document's value, and repeated keys as strict complaints. */
function parseFirstDocument(text: string, st: DecodeState): unknown {
  const docs = parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false });
  if (!Array.isArray(docs)) return null; // an empty stream
  const doc = docs[0];
  if (doc === undefined) return null;
  if (doc.errors.length > 0) {
    throw new AuditPolicyError(`failed decoding: yaml: ${doc.errors.map((e) => e.message).join('; ')}`);
  }
  const isJson = /^\s*\{/.test(text);
  const dups: string[] = [];
  findDuplicateKeys(doc.contents, '', text, isJson, dups);
  if (dups.length > 0) {
    // JSON input goes through the JSON decoder upstream, YAML through go-yaml: two wordings.
    st.unknown.unshift(...(isJson ? dups : [`yaml: unmarshal errors:\n${dups.join('\n')}`]));
  }
  return doc.toJS();
}

function findDuplicateKeys(node: unknown, path: string, text: string, isJson: boolean, out: string[]): void {
  if (isSeq(node)) {
    for (const [i, item] of node.items.entries()) findDuplicateKeys(item, `${path}[${i}]`, text, isJson, out);
    return;
  }
  if (!isMap(node)) return;
  const seen = new Set<string>();
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const p = path === '' ? key : `${path}.${key}`;
    if (seen.has(key)) {
      if (isJson) out.push(`duplicate field ${JSON.stringify(p)}`);
      else {
        const start = isNode(pair.key) ? (pair.key.range?.[0] ?? 0) : 0;
        const line = text.slice(0, start).split('\n').length;
        out.push(`  line ${line}: key ${JSON.stringify(key)} already set in map`);
      }
    }
    seen.add(key);
    findDuplicateKeys(pair.value, p, text, isJson, out);
  }
}

type Dict = Record<string, unknown>;
const list = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);

function groupResourcesOf(v: unknown): GroupResources {
  const d = (v ?? {}) as Dict;
  return {
    group: (d.group as string | undefined) ?? '',
    resources: list(d.resources),
    resourceNames: list(d.resourceNames),
  };
}

function ruleOf(v: unknown): PolicyRule {
  const d = (v ?? {}) as Dict;
  return {
    level: (d.level as string | undefined) ?? '',
    users: list(d.users),
    userGroups: list(d.userGroups),
    verbs: list(d.verbs),
    resources: (Array.isArray(d.resources) ? d.resources : []).map(groupResourcesOf),
    namespaces: list(d.namespaces),
    nonResourceURLs: list(d.nonResourceURLs),
    omitStages: list(d.omitStages),
    omitManagedFields: typeof d.omitManagedFields === 'boolean' ? d.omitManagedFields : undefined,
  };
}

/** Decodes and checks policy text (YAML or JSON); throws AuditPolicyError with upstream's message. */
export function loadAuditPolicy(text: string, profile: NamingProfile = namingProfile('spec')): LoadedPolicy {
  const st: DecodeState = { unknown: [] };
  const raw = parseFirstDocument(text, st) ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new AuditPolicyError(
      `failed decoding: couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(raw)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const obj = raw as Dict;
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  // A missing kind is taken from the target type, as upstream's decoder does.
  const kind = typeof obj.kind === 'string' && obj.kind !== '' ? obj.kind : AUDIT_POLICY_KIND;
  if (apiVersion === '') {
    // Upstream's decoder then falls back to the internal version, which the loader refuses.
    throw new AuditPolicyError(
      `unknown group version field ${auditGroup(profile)}/__internal, Kind=${kind} in policy`,
    );
  }
  if (!isAuditPolicyApiVersion(profile, apiVersion)) {
    throw new AuditPolicyError(
      `failed decoding: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`,
    );
  }
  if (kind !== AUDIT_POLICY_KIND) {
    throw new AuditPolicyError(
      `failed decoding: converting (v1.${kind}) to (audit.Policy): unknown conversion`,
    );
  }
  check(obj, POLICY, 'Policy', '', '', st);
  if (st.typeError !== undefined) throw new AuditPolicyError(`failed decoding: ${st.typeError}`);
  const warnings =
    st.unknown.length > 0
      ? [
          `Audit policy contains errors, falling back to lenient decoding: strict decoding error: ${st.unknown.join(', ')}`,
        ]
      : [];
  const policy: Policy = {
    rules: (Array.isArray(obj.rules) ? obj.rules : []).map(ruleOf),
    omitStages: list(obj.omitStages),
    omitManagedFields: obj.omitManagedFields === true,
  };
  const errs = validatePolicy(policy);
  if (errs.length > 0) throw new AuditPolicyError(aggregateMessage(errs));
  if (policy.rules.length === 0) throw new AuditPolicyError('loaded illegal policy with 0 rules');
  return { policy, warnings };
}

// ---------------------------------------------------------------------------------------------
// Validation (upstream's ValidatePolicy)

export function validatePolicy(policy: Policy): FieldError[] {
  const errs = validateOmitStages(policy.omitStages, newPath('omitStages'));
  const rules = newPath('rules');
  for (const [i, rule] of policy.rules.entries()) errs.push(...validateRule(rule, rules.index(i)));
  return errs;
}

function validateRule(rule: PolicyRule, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (rule.level === '') errs.push(required(path.child('level')));
  else if (!(AUDIT_LEVELS as readonly string[]).includes(rule.level)) {
    errs.push(notSupported(path.child('level'), rule.level, AUDIT_LEVELS));
  }
  errs.push(...validateNonResourceURLs(rule.nonResourceURLs, path.child('nonResourceURLs')));
  errs.push(...validateResources(rule.resources, path.child('resources')));
  errs.push(...validateOmitStages(rule.omitStages, path.child('omitStages')));
  if (rule.nonResourceURLs.length > 0 && (rule.resources.length > 0 || rule.namespaces.length > 0)) {
    errs.push(
      invalid(
        path.child('nonResourceURLs'),
        rule.nonResourceURLs,
        'rules cannot apply to both regular resources and non-resource URLs',
      ),
    );
  }
  return errs;
}

function validateNonResourceURLs(urls: string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, url] of urls.entries()) {
    if (url === '*') continue;
    if (!url.startsWith('/')) {
      errs.push(invalid(path.index(i), url, "non-resource URL rules must begin with a '/' character"));
    }
    if (url !== '' && url.slice(0, -1).includes('*')) {
      errs.push(
        invalid(path.index(i), url, "non-resource URL wildcards '*' must be the final character of the rule"),
      );
    }
  }
  return errs;
}

function validateResources(groups: GroupResources[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  // Upstream names these paths without the list index; kept so messages match.
  for (const gr of groups) {
    if (gr.group !== '' && gr.group !== '*') {
      const msgs = isDNS1123Subdomain(gr.group);
      if (msgs.length > 0) errs.push(invalid(path.child('group'), gr.group, msgs.join(',')));
    }
    if (gr.resourceNames.length > 0 && gr.resources.length === 0) {
      errs.push(
        invalid(
          path.child('resourceNames'),
          gr.resourceNames,
          'using resourceNames requires at least one resource',
        ),
      );
    }
  }
  return errs;
}

function validateOmitStages(stages: string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, stage] of stages.entries()) {
    if (!(AUDIT_STAGES as readonly string[]).includes(stage)) {
      errs.push(invalid(path.index(i), stage, `allowed stages are ${AUDIT_STAGES.join(',')}`));
    }
  }
  return errs;
}
