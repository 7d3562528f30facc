import assert from 'node:assert/strict';
import { it } from 'node:test';
import { compose, type Filter, type RequestContext } from './context.ts';

it('filters run in order around the handler, and a filter can stop the chain', async () => {
  const trace: string[] = [];
  const f =
    (name: string): Filter =>
    async (_ctx, next) => {
      trace.push(`${name}>`);
      await next();
      trace.push(`<${name}`);
    };
  const stop: Filter = async () => {
    trace.push('stop');
  };
  const ctx = {} as RequestContext;
  await compose([f('a'), f('b')], async () => {
    trace.push('handler');
  })(ctx);
  assert.deepEqual(trace, ['a>', 'b>', 'handler', '<b', '<a']);
  trace.length = 0;
  await compose([f('a'), stop, f('b')], async () => {
    trace.push('handler');
  })(ctx);
  assert.deepEqual(trace, ['a>', 'stop', '<a']);
});
