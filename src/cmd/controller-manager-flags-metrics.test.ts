// The controller manager's --show-hidden-metrics-for-version: the previous minor release is taken
// into the options, anything else is a FlagError with upstream's message; the control-plane
// program's API server flag of that name reaches its manager too.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namingProfile } from '../naming/index.ts';
import { parseControlPlaneFlags } from './control-plane-flags.ts';
import { parseControllerManagerFlags } from './controller-manager-flags.ts';
import { FlagError } from './flag-parser.ts';

const spec = namingProfile('spec');
const base = [`--${spec.clientConfig}=/tmp/x`];

describe('controller manager --show-hidden-metrics-for-version', () => {
  it('takes the previous minor release into the options; absent, it sets nothing', () => {
    const o = parseControllerManagerFlags([...base, '--show-hidden-metrics-for-version=1.34'], 'cm');
    assert.equal(o.showHiddenMetricsForVersion, '1.34');
    assert.equal(parseControllerManagerFlags(base, 'cm').showHiddenMetricsForVersion, undefined);
  });

  it('refuses any other release with upstream message', () => {
    for (const v of ['1.33', '1.35', 'x']) {
      assert.throws(
        () => parseControllerManagerFlags([...base, `--show-hidden-metrics-for-version=${v}`], 'cm'),
        (err: unknown) =>
          err instanceof FlagError &&
          err.message.includes(
            "--show-hidden-metrics-for-version must be omitted or have the value '1.34'. Only the previous minor version is allowed",
          ),
        v,
      );
    }
  });

  it("reaches the control-plane program's manager from its API server flag", () => {
    const o = parseControlPlaneFlags(['--show-hidden-metrics-for-version=1.34'], 'cp');
    assert.equal(o.controllerManager?.showHiddenMetricsForVersion, '1.34');
  });
});
