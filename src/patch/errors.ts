// What a patch that cannot apply reports: a message in upstream's words, and whether the patch
// itself was malformed (400) or could not apply to the object (422).

export class PatchError extends Error {
  override name = 'PatchError';
  constructor(
    message: string,
    /** `malformed`: the patch document is wrong; `conflict`: it does not fit the object. */
    readonly kind: 'malformed' | 'conflict',
  ) {
    super(message);
  }
}

/**
 * A JSON Patch whose operations nest the document deeper than the decoders allow. Upstream finds
 * this when it decodes the result, so it is reported against the document as far as it got.
 */
export class PatchTooDeepError extends Error {
  override name = 'PatchTooDeepError';
  constructor(
    message: string,
    /** The document after the operation that nested it too deeply. */
    readonly document: unknown,
  ) {
    super(message);
  }
}
