// The wide columns workloads share (`kubectl get -o wide`): containers, images, selector.

import type { TableColumn } from '../../codec/table.ts';
import { labelSelectorAsMatcher } from '../../machinery/labels.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { specOf } from './workload.ts';

const containers = (obj: ApiObject): { name?: string; image?: string }[] => {
  const list = specOf(obj).template?.spec?.containers;
  return Array.isArray(list) ? list : [];
};

export const containersColumn: TableColumn = {
  name: 'Containers',
  type: 'string',
  priority: 1,
  description: 'The names of the containers in the pod template.',
  cell: (obj) =>
    containers(obj)
      .map((c) => c.name ?? '')
      .join(','),
};

export const imagesColumn: TableColumn = {
  name: 'Images',
  type: 'string',
  priority: 1,
  description: 'The image each container of the pod template runs.',
  cell: (obj) =>
    containers(obj)
      .map((c) => c.image ?? '')
      .join(','),
};

export const selectorColumn: TableColumn = {
  name: 'Selector',
  type: 'string',
  priority: 1,
  description: 'The label query for the pods the workload manages.',
  cell: (obj) => {
    try {
      return labelSelectorAsMatcher(specOf(obj).selector).toString();
    } catch {
      return '';
    }
  },
};
