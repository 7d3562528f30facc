import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import {
  decodeProtobuf,
  decodeWatchEvent,
  decodeWatchStream,
  encodeFrame,
  encodeMessage,
  encodeMetaProtobuf,
  encodeProtobuf,
  encodeProtobufList,
  encodeProtobufListChunks,
  encodeStatus,
  encodeWatchEvent,
  encodeWatchFrame,
  FrameReader,
  type KindMessages,
  ProtobufError,
} from './index.ts';
import { META_MESSAGES } from './meta-messages.ts';
import { fixtureEnvelope, fixtureMessage, goTime } from './testing/golden.ts';

const noKinds = () => undefined;

describe('meta/v1 messages', () => {
  it('Status matches upstream bytes and decodes back', () => {
    const status: ApiObject = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'ConfigMap "x" is invalid: data[a b]: Invalid value',
      reason: 'Invalid',
      details: {
        name: 'x',
        kind: 'configmaps',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value', field: 'data[a b]' }],
        retryAfterSeconds: 2,
      },
      code: 422,
    };
    const expected = fixtureEnvelope('fixture.meta.Status', 'v1', 'Status', {
      metadata: { selfLink: '', resourceVersion: '', continue: '' },
      status: 'Failure',
      message: 'ConfigMap "x" is invalid: data[a b]: Invalid value',
      reason: 'Invalid',
      details: {
        name: 'x',
        group: '',
        kind: 'configmaps',
        uid: '',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value', field: 'data[a b]' }],
        retryAfterSeconds: 2,
      },
      code: 422,
    });
    assert.equal(encodeStatus(status).toString('hex'), expected.toString('hex'));
    assert.deepEqual(decodeProtobuf(noKinds, expected), status);
  });

  it('DeleteOptions in any group version decodes, pointers kept', () => {
    const body = fixtureEnvelope('fixture.meta.DeleteOptions', 'apps/v1', 'DeleteOptions', {
      gracePeriodSeconds: 0,
      preconditions: { uid: 'u-1', resourceVersion: '7' },
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    });
    const expected = {
      apiVersion: 'apps/v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
      preconditions: { uid: 'u-1', resourceVersion: '7' },
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    };
    assert.deepEqual(decodeProtobuf(noKinds, body), expected);
    assert.equal(
      encodeMetaProtobuf('DeleteOptions', expected, 'apps/v1').toString('hex'),
      body.toString('hex'),
    );
  });

  it('PartialObjectMetadataList', () => {
    const list: ApiObject = {
      apiVersion: 'meta.example.com/v1',
      kind: 'PartialObjectMetadataList',
      metadata: { resourceVersion: '3' },
      items: [{ metadata: { name: 'a', creationTimestamp: '2024-01-01T00:00:00Z' } }],
    };
    const body = fixtureEnvelope(
      'fixture.meta.PartialObjectMetadataList',
      'meta.example.com/v1',
      'PartialObjectMetadataList',
      {
        metadata: { selfLink: '', resourceVersion: '3', continue: '' },
        items: [
          {
            metadata: {
              name: 'a',
              generateName: '',
              namespace: '',
              selfLink: '',
              uid: '',
              resourceVersion: '',
              generation: 0,
              creationTimestamp: goTime('2024-01-01T00:00:00Z'),
            },
          },
        ],
      },
    );
    assert.equal(
      encodeMetaProtobuf('PartialObjectMetadataList', list, 'meta.example.com/v1').toString('hex'),
      body.toString('hex'),
    );
    assert.deepEqual(decodeProtobuf(noKinds, body), list);
  });
});

const Status: KindMessages = {
  group: '',
  version: 'v1',
  kind: 'Status',
  root: META_MESSAGES.Status,
  definitions: META_MESSAGES,
};

describe('watch events', () => {
  const object: ApiObject = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Success', code: 200 };

  it('WatchEvent is a bare message whose object is the enveloped body', () => {
    const inner = encodeProtobuf(Status, object);
    const event = encodeWatchEvent('ADDED', inner);
    const expected = fixtureMessage('fixture.meta.WatchEvent', { type: 'ADDED', object: { raw: inner } });
    assert.equal(event.toString('hex'), expected.toString('hex'));
    const back = decodeWatchEvent(expected);
    assert.equal(back.type, 'ADDED');
    assert.deepEqual(Buffer.from(back.object), inner);
  });

  it('frames are a 4-byte big-endian length and the message', () => {
    const inner = encodeProtobuf(Status, object);
    const frame = encodeWatchFrame('MODIFIED', inner);
    const event = encodeWatchEvent('MODIFIED', inner);
    assert.deepEqual(frame, encodeFrame(event));
    assert.equal(frame.readUInt32BE(0), event.length);
    const lookup = (_v: string, k: string) => (k === 'Status' ? (Status as never) : undefined);
    const stream = Buffer.concat([frame, encodeWatchFrame('DELETED', inner)]);
    assert.deepEqual(decodeWatchStream(lookup, stream), [
      { type: 'MODIFIED', object },
      { type: 'DELETED', object },
    ]);
    // Byte by byte arrival yields the same frames.
    const reader = new FrameReader();
    const frames: Buffer[] = [];
    for (const b of stream) frames.push(...reader.push(Uint8Array.of(b)));
    assert.equal(frames.length, 2);
    assert.throws(() => decodeWatchStream(lookup, stream.subarray(0, stream.length - 1)), ProtobufError);
    assert.throws(() => new FrameReader(10).push(frame), /exceeds/);
  });

  it('a list body in pieces equals the whole list', () => {
    const list = { metadata: { resourceVersion: '9' }, items: [object, { ...object, code: 201 }] };
    const whole = encodeProtobufList(Status, list);
    const pieces = encodeProtobufListChunks(
      Status,
      list.metadata,
      list.items.map((o) => encodeMessage(Status, o)),
    );
    assert.deepEqual(Buffer.concat(pieces), whole);
  });
});
