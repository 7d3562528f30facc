// The OpenAPI documents the routes serve, built on first request and kept: they only change when
// the set of kinds does, which is never after startup.

import type { NamingProfile } from '../naming/profile.ts';
import type { KindDefinition } from '../registry/kind.ts';
import { openApiV2Document, openApiV3Document, openApiV3Index } from './openapi/index.ts';
import type { OpenApiDocuments } from './routes.ts';
import { API_MAJOR, API_MINOR } from './version.ts';

export function buildOpenApi(kinds: readonly KindDefinition[], profile: NamingProfile): OpenApiDocuments {
  let v2: unknown;
  let index: unknown;
  const v3 = new Map<string, unknown>();
  return {
    v2: () => {
      v2 ??= openApiV2Document(kinds, profile, {
        title: profile.componentPrefix,
        version: `v${API_MAJOR}.${API_MINOR}.0`,
      });
      return v2;
    },
    v3Index: () => {
      index ??= openApiV3Index(kinds, profile);
      return index;
    },
    v3: (path) => {
      if (!v3.has(path)) v3.set(path, openApiV3Document(kinds, profile, path));
      return v3.get(path);
    },
  };
}
