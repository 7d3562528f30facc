import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LEADER_CHANGED, TermWatch } from './term-watch.ts';

const never = () => new Promise<never>(() => undefined);

describe('TermWatch', () => {
  // TermWatch's timers never keep a process alive; here something must, while nothing else waits.
  let keepAlive: NodeJS.Timeout;
  before(() => {
    keepAlive = setInterval(() => undefined, 1000);
  });
  after(() => clearInterval(keepAlive));

  it('a request still waiting when a newer term shows up is reported left behind', async () => {
    const terms = new TermWatch(async () => 5);
    terms.observe('4');
    // No answer ever comes (a proposal lost with the old leader): the probe finds term 5.
    assert.equal(await terms.race(never(), terms.current), LEADER_CHANGED);
    assert.equal(terms.current, 5);
    terms.stop();
  });

  it('a slow answer in the same term is waited for', async () => {
    let probes = 0;
    const terms = new TermWatch(async () => {
      probes++;
      return 4;
    });
    terms.observe(4);
    const slow = new Promise<string>((resolve) => {
      const wait = setInterval(() => {
        if (probes >= 2) {
          clearInterval(wait);
          resolve('answer');
        }
      }, 10);
    });
    assert.equal(await terms.race(slow, terms.current), 'answer');
    terms.stop();
  });

  it('answers as they come move the term on; older terms are ignored', () => {
    const terms = new TermWatch(async () => 0);
    terms.observe('7');
    terms.observe('3');
    terms.observe(undefined);
    assert.equal(terms.current, 7);
  });
});
