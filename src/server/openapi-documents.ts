// The OpenAPI documents the routes serve, built on first request and kept: they only change when
// the set of kinds does, which is never after startup. The generator loads on that first request
// too: most clients never ask, and an idle server should not hold it.

import type { NamingProfile } from '../naming/profile.ts';
import type { KindDefinition } from '../registry/kind.ts';
import type { OpenApiDocuments } from './routes.ts';
import { API_MAJOR, API_MINOR } from './version.ts';

type Generator = typeof import('./openapi/index.ts');

export function buildOpenApi(kinds: readonly KindDefinition[], profile: NamingProfile): OpenApiDocuments {
  let generator: Promise<Generator> | undefined;
  const load = () => {
    generator ??= import('./openapi/index.ts');
    return generator;
  };
  let v2: unknown;
  let index: unknown;
  const v3 = new Map<string, unknown>();
  return {
    v2: async () => {
      const g = await load();
      v2 ??= g.openApiV2Document(kinds, profile, {
        title: profile.componentPrefix,
        version: `v${API_MAJOR}.${API_MINOR}.0`,
      });
      return v2;
    },
    v3Index: async () => {
      const g = await load();
      index ??= g.openApiV3Index(kinds, profile);
      return index;
    },
    v3: async (path) => {
      const g = await load();
      if (!v3.has(path)) v3.set(path, g.openApiV3Document(kinds, profile, path));
      return v3.get(path);
    },
  };
}
