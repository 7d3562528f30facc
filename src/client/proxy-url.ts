// A cluster's proxy-url: refused clearly when a client is made. The CONNECT tunnel carrying TLS and
// HTTP/2 worked on Node 20 but not on Node 24, so the client offers no proxy until it holds on every
// runtime the project supports; a configuration that names one fails at once, not at the first
// request.

export function refuseProxyUrl(proxyUrl: string): never {
  throw new Error(`proxy URL "${proxyUrl}": connecting through a proxy is not supported by this client`);
}
