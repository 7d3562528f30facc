// The control-plane program's --simulated-nodes: a few nodes by default, none when asked, and a
// value that is not a count refused as a flag error.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SIMULATED_NODES, parseControlPlaneFlags } from './control-plane-flags.ts';
import { FlagError } from './flag-parser.ts';

describe('--simulated-nodes', () => {
  it('defaults to a few nodes in the program, and takes a count', () => {
    assert.equal(DEFAULT_SIMULATED_NODES, 3);
    assert.equal(parseControlPlaneFlags([], 'cp').simulatedNodes, 3);
    assert.equal(parseControlPlaneFlags(['--simulated-nodes=0'], 'cp').simulatedNodes, 0);
    assert.equal(parseControlPlaneFlags(['--simulated-nodes', '50'], 'cp').simulatedNodes, 50);
  });

  it('refuses what is not a count', () => {
    for (const bad of ['-1', 'three', '1.5', '10001']) {
      assert.throws(
        () => parseControlPlaneFlags([`--simulated-nodes=${bad}`], 'cp'),
        (err: unknown) =>
          err instanceof FlagError &&
          err.message ===
            `invalid argument "${bad}" for "--simulated-nodes" flag: must be a whole number from 0 to 10000`,
      );
    }
  });
});
