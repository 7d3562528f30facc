// Anything a handler throws becomes a Status response; nothing a client sends takes the process down.

import type { Filter } from '../context.ts';
import { writeError } from '../respond.ts';

export const recovery: Filter = async (ctx, next) => {
  try {
    await next();
  } catch (err) {
    writeError(ctx, err);
  }
};
