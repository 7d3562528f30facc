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
