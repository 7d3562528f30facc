// Upstream's "legacy" audit log format (pkg/audit/format.go, EventString): one line of text per
// event with a subset of its fields, each quoted as Go's %q quotes. Also how plugin errors name
// the events they lost.

import type { AuditEvent } from '../event-types.ts';

const SHORT_ESCAPES: Record<number, string> = {
  7: '\\a',
  8: '\\b',
  12: '\\f',
  10: '\\n',
  13: '\\r',
  9: '\\t',
  11: '\\v',
  34: '\\"',
  92: '\\\\',
};

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** Non-printable by Go's unicode.IsPrint among the code points a request can plausibly carry. */
function unprintable(cp: number): boolean {
  return (
    cp < 0x20 ||
    (cp >= 0x7f && cp <= 0xa0) ||
    cp === 0xad ||
    (cp >= 0x2000 && cp <= 0x200f) ||
    (cp >= 0x2028 && cp <= 0x202f) ||
    (cp >= 0x205f && cp <= 0x206f) ||
    cp === 0x3000 ||
    cp === 0xfeff ||
    (cp >= 0xfff9 && cp <= 0xfffb) ||
    (cp >= 0xe000 && cp <= 0xf8ff)
  );
}

/** A string quoted as Go's strconv.Quote (%q) quotes it. */
export function goQuote(s: string): string {
  // The common case (printable ASCII without quotes or backslashes) needs no scan per character.
  if (/^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    const short = SHORT_ESCAPES[cp];
    if (short !== undefined) out += short;
    else if (cp >= 0xd800 && cp <= 0xdfff)
      out += '\\ufffd'; // a lone surrogate: Go sees invalid UTF-8
    else if (!unprintable(cp)) out += ch;
    else if (cp < 0x80) out += `\\x${hex(cp, 2)}`;
    else if (cp <= 0xffff) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return `${out}"`;
}

/** Go's RFC3339Nano: the fraction of a second without its trailing zeros (none when zero). */
function rfc3339Nano(ts: string): string {
  return ts.replace(/\.(\d*?)0+(Z|[+-]\d\d:\d\d)$/, (_m, digits: string, zone: string) =>
    digits === '' ? zone : `.${digits}${zone}`,
  );
}

const quotedList = (list: readonly string[]) => list.map(goQuote).join(',');

/** The event's one-line text form, as upstream's EventString writes it (without the newline). */
export function eventString(ev: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (ev.user.username !== undefined && ev.user.username !== '') {
    username = ev.user.username;
    if (ev.user.groups !== undefined && ev.user.groups.length > 0) groups = quotedList(ev.user.groups);
  }
  let asUser = '<self>';
  let asGroups = '<lookup>';
  if (ev.impersonatedUser !== undefined) {
    asUser = ev.impersonatedUser.username ?? '';
    if (ev.impersonatedUser.groups !== undefined) asGroups = quotedList(ev.impersonatedUser.groups);
  }
  const ns = ev.objectRef?.namespace;
  const namespace = ns !== undefined && ns !== '' ? ns : '<none>';
  const response = ev.responseStatus !== undefined ? String(ev.responseStatus.code ?? 0) : '<deferred>';
  const ip = ev.sourceIPs !== undefined && ev.sourceIPs.length > 0 ? ev.sourceIPs[0] : '<unknown>';
  return (
    `${rfc3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${goQuote(ev.auditID)} stage=${goQuote(ev.stage)} ` +
    `ip=${goQuote(ip)} method=${goQuote(ev.verb)} user=${goQuote(username)} groups=${goQuote(groups)} ` +
    `as=${goQuote(asUser)} asgroups=${goQuote(asGroups)} user-agent=${goQuote(ev.userAgent ?? '')} ` +
    `namespace=${goQuote(namespace)} uri=${goQuote(ev.requestURI)} response="${response}"`
  );
}
