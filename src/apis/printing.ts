// Helpers for table cells, shared by every kind's columns: ages as kubectl prints them.

import type { ApiObject } from '../machinery/object.ts';

/** A duration in upstream's short human form: `45s`, `5m10s`, `3h`, `2d5h`, `1y20d`. */
export function humanDuration(ms: number): string {
  // Go converts with int(), which truncates toward zero: a clock 1.5s ahead still reads 0s.
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    return dy === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** The Age cell: time since creation, `<unknown>` without a timestamp. */
export function age(obj: ApiObject, now = Date.now()): string {
  const created = obj.metadata?.creationTimestamp;
  if (created === undefined) return '<unknown>';
  const t = Date.parse(created);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

export const NAME_COLUMN = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically.',
  cell: (obj: ApiObject) => obj.metadata?.name ?? '',
};

export const AGE_COLUMN = {
  name: 'Age',
  type: 'string',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  cell: (obj: ApiObject) => age(obj),
};
