// Which encoding of /openapi/v2 an Accept header gets, decided as upstream's handler decides it
// (k8s.io/kube-openapi pkg/handler/handler.go, which parses Accept with github.com/munnerz/goautoneg):
// clauses sorted by q and then specific before wildcard, the first clause that covers one of JSON,
// the gnostic protobuf type client-go asks for (`...spec.v2@v1.0+protobuf`) or its successor
// (`...spec.v2.v1.0+protobuf`) wins; parameters, even q=0, never rule a clause out. Both protobuf
// types are answered as the successor. Kept apart from the shared negotiation in codec/ because that
// one, rightly for API objects, refuses the `@` in client-go's media type.

export type OpenApiV2Format = 'json' | 'protobuf';

/** The Content-Type of the protobuf answer, whichever of the two protobuf types was asked for. */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

const OFFERS: readonly (readonly [string, OpenApiV2Format])[] = [
  ['json', 'json'],
  ['com.github.proto-openapi.spec.v2@v1.0+protobuf', 'protobuf'],
  ['com.github.proto-openapi.spec.v2.v1.0+protobuf', 'protobuf'],
];

interface Clause {
  type: string;
  subType: string;
  q: number;
}

/** Go's strconv.ParseFloat on a plain decimal; goautoneg keeps the 0 a parse error returns. */
function quality(text: string): number {
  return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : 0;
}

/** goautoneg.ParseAccept: case kept, malformed ranges skipped, q read from the untrimmed value. */
function parseAccept(header: string): Clause[] {
  const out: Clause[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.trim().split(';');
    const sp = range.split('/');
    const type = sp[0].trim();
    let subType: string;
    if (sp.length === 1 && type === '*') subType = '*';
    else if (sp.length === 2) subType = sp[1].trim();
    else continue;
    let q = 1;
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq !== -1 && p.slice(0, eq).trim() === 'q') q = quality(p.slice(eq + 1));
    }
    out.push({ type, subType, q });
  }
  // goautoneg sorts with this comparison through Go's sort.Sort, an insertion sort at the sizes an
  // Accept header has; the same insertion sort here gives the same order even where the comparison
  // is not a strict ordering.
  const less = (a: Clause, b: Clause) =>
    a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subType !== '*' && b.subType === '*');
  for (let i = 1; i < out.length; i++) {
    for (let j = i; j > 0 && less(out[j], out[j - 1]); j--) [out[j], out[j - 1]] = [out[j - 1], out[j]];
  }
  return out;
}

/** The encoding to answer with, or undefined for a 406. An absent or empty Accept takes anything. */
export function negotiateOpenApiV2(accept: string | undefined): OpenApiV2Format | undefined {
  for (const c of parseAccept(accept === undefined || accept === '' ? '*/*' : accept)) {
    if (c.type !== 'application' && c.type !== '*') continue;
    const offer = OFFERS.find(([subType]) => c.subType === subType || c.subType === '*');
    if (offer !== undefined) return offer[1];
  }
  return undefined;
}
