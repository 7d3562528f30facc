// Kinds that are never stored (TokenReview, SelfSubjectReview, and the access reviews of the
// authorization group): a body goes in, an answer comes out of the same POST. They are declared as
// any kind (schema, discovery entry, OpenAPI, protobuf) with `create` as their only verb and a
// `review` function in place of storage; the create handler calls it (registry/kind.ts).

import { nameIsDNSSubdomain } from '../machinery/validation/names.ts';
import type { KindDefinition, Review } from '../registry/kind.ts';
import type { KindSchema } from '../schema/types.ts';

export interface ReviewKindInput {
  schema: KindSchema;
  /** Plural, lowercase: the path segment. */
  resource: string;
  namespaced: boolean;
  review: Review;
}

export function reviewKind(k: ReviewKindInput): KindDefinition {
  const { group, version, kind } = k.schema;
  return {
    resource: {
      group,
      version,
      resource: k.resource,
      singular: kind.toLowerCase(),
      kind,
      // No list: nothing is ever stored to list (and upstream declares none).
      listKind: '',
      namespaced: k.namespaced,
      verbs: ['create'],
      subresources: {},
    },
    schema: k.schema,
    // The store under a review kind is never asked; the strategy only completes the definition.
    strategy: {
      namespaced: k.namespaced,
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: false,
      tracksGeneration: false,
      hasStatus: false,
      returnDeletedObject: false,
      validateName: nameIsDNSSubdomain,
      validate: () => [],
      validateUpdate: () => [],
    },
    review: k.review,
  };
}
