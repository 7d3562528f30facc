// Go's net/url (as of Go 1.25, which kube-apiserver 1.35 is built with): Parse, ParseRequestURI,
// EscapedPath, Hostname, Port, Query and String, with Go's error strings. Go works on bytes, so
// the parser runs over a "byte string" (one char per UTF-8 byte) and converts back at the edges.

import { goQuote } from '../../machinery/field-errors.ts';
import { AddrParseError, parseAddr } from './netip.ts';

/** A URL in Go's field layout; every string is already converted back to text. */
export interface GoURL {
  scheme: string;
  opaque: string;
  user?: { username: string; password?: string };
  host: string;
  path: string;
  rawPath: string;
  omitHost: boolean;
  forceQuery: boolean;
  rawQuery: string;
  fragment: string;
  rawFragment: string;
}

export class URLParseError extends Error {
  override name = 'URLParseError';
}

type Mode = 'path' | 'pathSegment' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

const toBytes = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
const fromBytes = (b: string): string => Buffer.from(b, 'latin1').toString('utf8');

// strconv.Quote of a byte string: valid UTF-8 printed as text, stray bytes as \xNN.
function quoteBytes(b: string): string {
  const bytes = Buffer.from(b, 'latin1');
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    const len =
      lead < 0x80
        ? 1
        : lead >= 0xc2 && lead < 0xe0
          ? 2
          : lead >= 0xe0 && lead < 0xf0
            ? 3
            : lead >= 0xf0 && lead < 0xf5
              ? 4
              : 0;
    const seq = len > 0 ? bytes.subarray(i, i + len) : undefined;
    const text =
      seq && seq.length === len ? new TextDecoder('utf-8', { fatal: false }).decode(seq) : '\ufffd';
    if (seq && seq.length === len && !text.includes('\ufffd')) {
      out += goQuote(text).slice(1, -1);
      i += len;
    } else {
      out += `\\x${lead.toString(16).padStart(2, '0')}`;
      i++;
    }
  }
  return `"${out}"`;
}

const isAlnum = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);

function shouldEscape(c: string, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(c)) return false;
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) {
    switch (mode) {
      case 'path':
        return c === '?';
      case 'pathSegment':
        return c === '/' || c === ';' || c === ',' || c === '?';
      case 'userPassword':
        return c === '@' || c === '/' || c === '?' || c === ':';
      case 'queryComponent':
        return true;
      case 'fragment':
        return false;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(c)) return false;
  return true;
}

function urlUnescape(s: string, mode: Mode): string {
  for (let i = 0; i < s.length; ) {
    const c = s[i];
    if (c === '%') {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) {
        throw new URLParseError(`invalid URL escape ${quoteBytes(s.slice(i, i + 3))}`);
      }
      const v = Number.parseInt(s.slice(i + 1, i + 3), 16);
      if (mode === 'host' && v >> 4 < 8 && s.slice(i, i + 3) !== '%25') {
        throw new URLParseError(`invalid URL escape ${quoteBytes(s.slice(i, i + 3))}`);
      }
      if (
        mode === 'zone' &&
        s.slice(i, i + 3) !== '%25' &&
        v !== 0x20 &&
        shouldEscape(String.fromCharCode(v), 'host')
      ) {
        throw new URLParseError(`invalid URL escape ${quoteBytes(s.slice(i, i + 3))}`);
      }
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && shouldEscape(c, mode)) {
        throw new URLParseError(`invalid character ${quoteBytes(c)} in host name`);
      }
      i++;
    }
  }
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%') {
      out += String.fromCharCode(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (s[i] === '+' && mode === 'queryComponent') {
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

function urlEscape(s: string, mode: Mode): string {
  let out = '';
  for (const c of s) {
    if (c === ' ' && mode === 'queryComponent') out += '+';
    else if (shouldEscape(c, mode)) out += `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
    else out += c;
  }
  return out;
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function parseHost(host: string): string {
  const open = host.lastIndexOf('[');
  if (open !== -1) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new URLParseError("missing ']' in host");
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort))
      throw new URLParseError(`invalid port ${quoteBytes(colonPort)} after host`);
    const port = urlUnescape(colonPort, 'host');
    const name = host.slice(open + 1, close);
    const zone = name.indexOf('%25');
    const literal =
      zone >= 0
        ? urlUnescape(name.slice(0, zone), 'host') + urlUnescape(name.slice(zone), 'zone')
        : urlUnescape(name, 'host');
    let bytes: Uint8Array;
    try {
      bytes = parseAddr(fromBytes(literal)).bytes;
    } catch (e) {
      if (e instanceof AddrParseError) throw new URLParseError(`invalid host: ${e.message}`);
      throw e;
    }
    if (bytes.length === 4) throw new URLParseError('invalid IP-literal');
    return `[${literal}]${port}`;
  }
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && !validOptionalPort(host.slice(colon))) {
    throw new URLParseError(`invalid port ${quoteBytes(host.slice(colon))} after host`);
  }
  return urlUnescape(host, 'host');
}

const USERINFO = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

interface Raw extends Omit<GoURL, 'user'> {
  user?: { username: string; password?: string };
}

function parseBytes(raw: string, viaRequest: boolean): Raw {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: Go refuses exactly these bytes.
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new URLParseError('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new URLParseError('empty url');
  const u: Raw = {
    scheme: '',
    opaque: '',
    host: '',
    path: '',
    rawPath: '',
    omitHost: false,
    forceQuery: false,
    rawQuery: '',
    fragment: '',
    rawFragment: '',
  };
  if (raw === '*') return { ...u, path: '*' };
  let rest = raw;
  const scheme = /^[A-Za-z][A-Za-z0-9+\-.]*:/.exec(raw);
  if (raw.startsWith(':')) throw new URLParseError('missing protocol scheme');
  if (scheme) {
    u.scheme = scheme[0].slice(0, -1).toLowerCase();
    rest = raw.slice(scheme[0].length);
  }
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    u.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      u.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (u.scheme !== '') return { ...u, opaque: rest };
    if (viaRequest) throw new URLParseError('invalid URI for request');
    if (rest.split('/')[0].includes(':'))
      throw new URLParseError('first path segment in URL cannot contain colon');
  }
  if ((u.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const at = authority.lastIndexOf('@');
    u.host = parseHost(at < 0 ? authority : authority.slice(at + 1));
    if (at >= 0) {
      const info = authority.slice(0, at);
      if (!USERINFO.test(info)) throw new URLParseError('net/url: invalid userinfo');
      const colon = info.indexOf(':');
      u.user =
        colon < 0
          ? { username: urlUnescape(info, 'userPassword') }
          : {
              username: urlUnescape(info.slice(0, colon), 'userPassword'),
              password: urlUnescape(info.slice(colon + 1), 'userPassword'),
            };
    }
  } else if (u.scheme !== '' && rest.startsWith('/')) {
    u.omitHost = true;
  }
  u.path = urlUnescape(rest, 'path');
  u.rawPath = urlEscape(u.path, 'path') === rest ? '' : rest;
  return u;
}

function wrap(raw: string, f: () => Raw): Raw {
  try {
    return f();
  } catch (e) {
    if (e instanceof URLParseError) throw new URLParseError(`parse ${quoteBytes(raw)}: ${e.message}`);
    throw e;
  }
}

/** url.ParseRequestURI, in byte-string form. */
function parseRequestURIBytes(raw: string): Raw {
  return wrap(raw, () => parseBytes(raw, true));
}

/** url.Parse, in byte-string form: the fragment is split off first. */
function parseWithFragmentBytes(raw: string): Raw {
  const hash = raw.indexOf('#');
  const main = hash < 0 ? raw : raw.slice(0, hash);
  const frag = hash < 0 ? '' : raw.slice(hash + 1);
  const u = wrap(main, () => parseBytes(main, false));
  if (frag === '') return u;
  return wrap(raw, () => {
    const fragment = urlUnescape(frag, 'fragment');
    return { ...u, fragment, rawFragment: urlEscape(fragment, 'fragment') === frag ? '' : frag };
  });
}

/** Go's url.ParseRequestURI; throws URLParseError with Go's `parse "...": ...` message. */
export function parseRequestURI(raw: string): void {
  parseRequestURIBytes(toBytes(raw));
}

/** Go's url.Parse; throws URLParseError with Go's message. The result is kept in byte form. */
export function parseURL(raw: string): ByteURL {
  return new ByteURL(parseWithFragmentBytes(toBytes(raw)));
}

function validEncoded(s: string, mode: Mode): boolean {
  for (const c of s) {
    if (`!$&'()*+,;=:@[]%`.includes(c)) continue;
    if (shouldEscape(c, mode)) return false;
  }
  return true;
}

/** A parsed URL whose accessors answer what Go's methods answer. */
export class ByteURL {
  constructor(private readonly u: Raw) {}

  get scheme(): string {
    return fromBytes(this.u.scheme);
  }

  get host(): string {
    return fromBytes(this.u.host);
  }

  private splitHostPort(): [string, string] {
    let host = this.u.host;
    let port = '';
    const colon = host.lastIndexOf(':');
    if (colon !== -1 && validOptionalPort(host.slice(colon))) {
      port = host.slice(colon + 1);
      host = host.slice(0, colon);
    }
    if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
    return [host, port];
  }

  get hostname(): string {
    return fromBytes(this.splitHostPort()[0]);
  }

  get port(): string {
    return fromBytes(this.splitHostPort()[1]);
  }

  private escapedPathBytes(): string {
    const { rawPath, path } = this.u;
    if (rawPath !== '' && validEncoded(rawPath, 'path')) {
      try {
        if (urlUnescape(rawPath, 'path') === path) return rawPath;
      } catch {
        // fall through to escaping the decoded path
      }
    }
    if (path === '*') return '*';
    return urlEscape(path, 'path');
  }

  get escapedPath(): string {
    return fromBytes(this.escapedPathBytes());
  }

  /** Go's Query(): `&`-separated pairs, `+` as space, bad escapes and `;` pairs skipped. */
  get query(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const pair of this.u.rawQuery.split('&')) {
      if (pair === '' || pair.includes(';')) continue;
      const eq = pair.indexOf('=');
      let key: string;
      let value: string;
      try {
        key = fromBytes(urlUnescape(eq < 0 ? pair : pair.slice(0, eq), 'queryComponent'));
        value = fromBytes(urlUnescape(eq < 0 ? '' : pair.slice(eq + 1), 'queryComponent'));
      } catch {
        continue;
      }
      const list = out.get(key);
      if (list) list.push(value);
      else out.set(key, [value]);
    }
    return out;
  }

  /** Go's String(), which upstream's CEL URL equality compares. */
  toString(): string {
    const u = this.u;
    let out = u.scheme === '' ? '' : `${u.scheme}:`;
    if (u.opaque !== '') {
      out += u.opaque;
    } else {
      if ((u.scheme !== '' || u.host !== '' || u.user) && !(u.omitHost && u.host === '' && !u.user)) {
        if (u.host !== '' || u.path !== '' || u.user) out += '//';
        if (u.user) {
          out += urlEscape(u.user.username, 'userPassword');
          if (u.user.password !== undefined) out += `:${urlEscape(u.user.password, 'userPassword')}`;
          out += '@';
        }
        if (u.host !== '') out += urlEscape(u.host, 'host');
      }
      const path = this.escapedPathBytes();
      if (path !== '' && path[0] !== '/' && u.host !== '') out += '/';
      if (out === '' && path.split('/')[0].includes(':')) out += './';
      out += path;
    }
    if (u.forceQuery || u.rawQuery !== '') out += `?${u.rawQuery}`;
    if (u.fragment !== '') {
      let frag = urlEscape(u.fragment, 'fragment');
      if (u.rawFragment !== '' && validEncoded(u.rawFragment, 'fragment')) {
        try {
          if (urlUnescape(u.rawFragment, 'fragment') === u.fragment) frag = u.rawFragment;
        } catch {
          // keep the escaped fragment
        }
      }
      out += `#${frag}`;
    }
    return fromBytes(out);
  }
}
