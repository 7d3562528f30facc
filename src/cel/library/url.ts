// Upstream's URL library (kube-apiserver's "kubernetes.urls", on since 1.27): url() and isURL(),
// and the getters getScheme, getHost, getHostname, getPort, getEscapedPath and getQuery, over the
// value type kubernetes.URL. The semantics are semantics/url.ts (Go's ParseRequestURI to accept,
// Parse for the value, upstream's messages); this file binds them by upstream's names and overload
// ids. Costs are upstream's cost.go figures, which src/cel/cost-table.ts charges by function name
// (url() scans its string, the getters cost 1), so no overload carries its own hook.

import type { CelLibrary, CelOverload } from '../environment.ts';
import {
  isURL,
  parseURLValue,
  type URLValue,
  urlEquals,
  urlGetEscapedPath,
  urlGetHost,
  urlGetHostname,
  urlGetPort,
  urlGetQuery,
  urlGetScheme,
} from '../semantics/index.ts';
import { T } from '../types.ts';

/** A URL as a CEL value: equal to another when Go's String() of both is (upstream's rule). */
export class CelURL {
  constructor(readonly url: URLValue) {}

  equals(other: unknown): boolean {
    return other instanceof CelURL && urlEquals(this.url, other.url);
  }

  toString(): string {
    return this.url.toString();
  }
}

/** The CEL type of URLs. */
export const URL_TYPE = T.opaque('kubernetes.URL');

function getter(name: string, id: string, result: typeof T.string, get: (u: URLValue) => unknown) {
  const o: CelOverload = { id, receiver: URL_TYPE, params: [], result, impl: (u: CelURL) => get(u.url) };
  return { name, overloads: [o] };
}

export const urlLibrary: CelLibrary = {
  name: 'kubernetes.urls',
  types: [{ name: 'kubernetes.URL', ctor: CelURL }],
  functions: [
    {
      name: 'url',
      overloads: [
        {
          id: 'string_to_url',
          params: [T.string],
          result: URL_TYPE,
          impl: (s: string) => new CelURL(parseURLValue(s)),
        },
      ],
    },
    {
      name: 'isURL',
      overloads: [{ id: 'is_url_string', params: [T.string], result: T.bool, impl: (s: string) => isURL(s) }],
    },
    getter('getScheme', 'url_get_scheme', T.string, urlGetScheme),
    getter('getHost', 'url_get_host', T.string, urlGetHost),
    getter('getHostname', 'url_get_hostname', T.string, urlGetHostname),
    getter('getPort', 'url_get_port', T.string, urlGetPort),
    getter('getEscapedPath', 'url_get_escaped_path', T.string, urlGetEscapedPath),
    getter('getQuery', 'url_get_query', T.map(T.string, T.list(T.string)), urlGetQuery),
  ],
};
