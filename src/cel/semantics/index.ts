// Engine-independent value semantics for the CEL libraries kube-apiserver 1.35 enables: IP and
// CIDR (Go net/netip), URL (Go net/url), semver (blang/semver v4 plus upstream's normalize),
// the named formats, and (from machinery) quantities. Plain functions and immutable values with
// upstream's results and error messages, so that binding them to the CEL engine is a thin layer:
// a thrown *Error becomes a CEL error value carrying its message. Imports only machinery/ and
// files of this folder; no CEL package.

export {
  isQuantity,
  parseQuantity,
  Quantity,
  QuantityError,
  type QuantityFormat,
} from '../../machinery/quantity.ts';
export * from './cidr.ts';
export * from './format.ts';
export * from './ip.ts';
export * from './semver.ts';
export * from './url.ts';
