// The value semantics of upstream's CEL URL library (kubernetes.urls): url(), isURL and the
// getters. A string is a URL when Go's url.ParseRequestURI accepts it (an absolute URI or an
// absolute path); the value itself comes from url.Parse, which (unlike ParseRequestURI) splits
// off the fragment. Equality compares Go's String() of both URLs.

import { type ByteURL, parseRequestURI, parseURL, URLParseError } from './goURL.ts';

/** A value url() refuses; the message is upstream's. */
export class URLError extends Error {
  override name = 'URLError';
}

export type URLValue = ByteURL;

const PREFIX = 'URL parse error during conversion from string: ';

/** url(string): throws URLError with upstream's message. */
export function parseURLValue(s: string): URLValue {
  try {
    parseRequestURI(s);
    return parseURL(s);
  } catch (e) {
    if (e instanceof URLParseError) throw new URLError(PREFIX + e.message);
    throw e;
  }
}

/** isURL(string): whether Go's ParseRequestURI accepts it. */
export function isURL(s: string): boolean {
  try {
    parseRequestURI(s);
    return true;
  } catch (e) {
    if (e instanceof URLParseError) return false;
    throw e;
  }
}

/** The ParseRequestURI error text for s, or undefined when it parses (format.uri uses this). */
export function requestURIError(s: string): string | undefined {
  try {
    parseRequestURI(s);
    return undefined;
  } catch (e) {
    if (e instanceof URLParseError) return e.message;
    throw e;
  }
}

/** getScheme(): lower-cased; '' for a path. */
export const urlGetScheme = (u: URLValue): string => u.scheme;
/** getHost(): host and port, IPv6 in brackets. */
export const urlGetHost = (u: URLValue): string => u.host;
/** getHostname(): host without port, IPv6 without brackets. */
export const urlGetHostname = (u: URLValue): string => u.hostname;
/** getPort(): '' when absent. */
export const urlGetPort = (u: URLValue): string => u.port;
/** getEscapedPath(): the path as Go escapes it (`with space` -> `with%20space`). */
export const urlGetEscapedPath = (u: URLValue): string => u.escapedPath;
/** getQuery(): unescaped keys to every value given for them, in order. */
export const urlGetQuery = (u: URLValue): Map<string, string[]> => u.query;
/** Go's String() of the URL. */
export const urlToString = (u: URLValue): string => u.toString();
/** CEL equality: the String() forms are equal. */
export const urlEquals = (a: URLValue, b: URLValue): boolean => a.toString() === b.toString();
