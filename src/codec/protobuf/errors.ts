// The one error every protobuf failure becomes, so callers can turn it into a 400 (a body) or a 500
// (our own object) without string matching.

export class ProtobufError extends Error {
  override readonly name = 'ProtobufError';
}
