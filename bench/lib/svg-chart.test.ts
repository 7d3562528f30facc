// The SVG bar chart: a well-formed XML document (checked by a strict little parser here: no XML
// library is a dependency), its axis, legend and labels, and exactly one bar per value shown.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { niceTicks, renderBarChart, xmlEscape } from './svg-chart.ts';

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = '[A-Za-z_][\\w.:-]*';
const ENTITY = /&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g;

function checkText(text: string, where: string): string {
  const stripped = text.replace(ENTITY, '');
  assert.ok(!/[<&]/.test(stripped), `raw < or & in ${where}: ${text}`);
  return text;
}

/** Parses a document of elements, attributes and text (what the chart writes); throws if not well formed. */
function parseXml(doc: string): XmlElement {
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  const tag = new RegExp(`<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*(/?)>`, 'y');
  let i = 0;
  while (i < doc.length) {
    const lt = doc.indexOf('<', i);
    const text = doc.slice(i, lt === -1 ? doc.length : lt);
    stack[stack.length - 1].text += checkText(text, 'text');
    if (lt === -1) break;
    tag.lastIndex = lt;
    const m = tag.exec(doc);
    assert.ok(m !== null, `malformed tag at ${lt}: ${doc.slice(lt, lt + 60)}`);
    const [whole, closing, name, attrs, selfClosing] = m;
    if (closing === '/') {
      assert.equal(attrs.trim(), '', `attributes on closing tag ${name}`);
      const open = stack.pop();
      assert.equal(open?.name, name, `</${name}> closes <${open?.name}>`);
    } else {
      const attributes: Record<string, string> = {};
      for (const a of attrs.matchAll(new RegExp(`(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g'))) {
        assert.ok(!(a[1] in attributes), `attribute ${a[1]} repeated on <${name}>`);
        attributes[a[1]] = checkText(a[2] ?? a[3], `attribute ${a[1]}`);
      }
      const el: XmlElement = { name, attributes, children: [], text: '' };
      stack[stack.length - 1].children.push(el);
      if (selfClosing !== '/') stack.push(el);
    }
    i = lt + whole.length;
  }
  assert.equal(stack.length, 1, `unclosed <${stack[stack.length - 1].name}>`);
  assert.equal(root.children.length, 1, 'one root element');
  assert.equal(root.text.trim(), '', 'no text outside the root');
  return root.children[0];
}

function all(el: XmlElement, pred: (e: XmlElement) => boolean): XmlElement[] {
  return [...(pred(el) ? [el] : []), ...el.children.flatMap((c) => all(c, pred))];
}
const byClass = (el: XmlElement, cls: string) => all(el, (e) => e.attributes.class === cls);
/** An element's text with its children's, as a reader sees it. */
const textOf = (el: XmlElement): string => el.text + el.children.map(textOf).join('');

describe('svg chart', () => {
  const spec = {
    title: 'get: latency p50/p90/p99 (ms) & <more>',
    series: ['p50', 'p90', 'p99'],
    unit: 'ms',
    groups: [
      { label: 'plat-apiserver (sqlite) · random gets, 64 clients', values: [14.2, 30, 51.2] },
      { label: 'plat-apiserver (etcd3) · "quoted" & <odd>', values: [19.8, undefined, 89] },
      { label: 'x'.repeat(100), values: [1, Number.NaN, 2] },
    ],
  };

  it('is a well-formed SVG document with its title, legend and axis', () => {
    const svg = parseXml(renderBarChart(spec));
    assert.equal(svg.name, 'svg');
    assert.equal(svg.attributes.xmlns, 'http://www.w3.org/2000/svg');
    assert.ok(Number(svg.attributes.width) > 0 && Number(svg.attributes.height) > 0);
    assert.equal(textOf(byClass(svg, 'title')[0]), xmlEscape(spec.title));
    assert.deepEqual(all(byClass(svg, 'legend')[0], (e) => e.name === 'text').map(textOf), [
      'p50',
      'p90',
      'p99',
    ]);
    assert.equal(textOf(byClass(svg, 'axis-label')[0]), 'latency (ms)');
    assert.deepEqual(byClass(svg, 'tick').map(textOf), ['0', '20', '40', '60', '80', '100']);
    assert.equal(byClass(svg, 'y-axis').length, 1);
  });

  it('labels every group, truncating long labels but keeping the full one as its title', () => {
    const svg = parseXml(renderBarChart(spec));
    const labels = byClass(svg, 'group-label');
    assert.equal(labels.length, 3);
    assert.equal(labels[0].text, spec.groups[0].label);
    assert.equal(labels[1].text, xmlEscape(spec.groups[1].label));
    assert.ok(labels[2].text.endsWith('…') && labels[2].text.length < 100);
    assert.equal(textOf(labels[2].children[0]), 'x'.repeat(100));
  });

  it('draws one bar per value shown, none for missing ones, lengths in proportion', () => {
    const svg = parseXml(renderBarChart(spec));
    const bars = byClass(svg, 'bar');
    assert.deepEqual(
      bars.map((b) => b.attributes['data-series']),
      ['p50', 'p90', 'p99', 'p50', 'p99', 'p50', 'p99'],
    );
    assert.equal(byClass(svg, 'value').length, 7);
    assert.deepEqual(byClass(svg, 'value').slice(0, 3).map(textOf), ['14.2 ms', '30.0 ms', '51.2 ms']);
    const width = (k: number) => Number(bars[k].attributes.width);
    // 14.2 and 51.2 ms on one scale.
    assert.ok(Math.abs(width(0) / width(2) - 14.2 / 51.2) < 0.01);
    // Every bar starts at the axis.
    assert.equal(new Set(bars.map((b) => b.attributes.x)).size, 1);
  });

  it('draws an empty chart and refuses values it cannot draw', () => {
    const svg = parseXml(renderBarChart({ title: 't', series: ['p50'], unit: 'ms', groups: [] }));
    assert.equal(byClass(svg, 'bar').length, 0);
    assert.throws(() =>
      renderBarChart({ title: 't', series: ['p50'], unit: 'ms', groups: [{ label: 'a', values: [-1] }] }),
    );
    assert.throws(() =>
      renderBarChart({ title: 't', series: ['p50'], unit: 'ms', groups: [{ label: 'a', values: [1, 2] }] }),
    );
  });

  it('ticks in steps of 1, 2 or 5 to at least the largest value', () => {
    assert.deepEqual(niceTicks(51.2), [0, 20, 40, 60]);
    assert.deepEqual(niceTicks(314), [0, 100, 200, 300, 400]);
    assert.deepEqual(niceTicks(0.9), [0, 0.2, 0.4, 0.6, 0.8, 1]);
    assert.deepEqual(niceTicks(0), [0, 1]);
  });

  it('the test parser refuses what is not well formed', () => {
    assert.throws(() => parseXml('<svg><g></svg>'));
    assert.throws(() => parseXml('<svg a="1" a="2"/>'));
    assert.throws(() => parseXml('<svg>a & b</svg>'));
    assert.throws(() => parseXml('<svg x=1/>'));
  });
});
