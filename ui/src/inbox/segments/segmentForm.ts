import type { FieldErrors, Resolver } from 'react-hook-form';
import { SegmentSaveSchema } from '../../../../api/segments/schema';
import type { Segment } from './types';
import type { SegmentSaveBody } from './useSegments';

/**
 * The editor's fields. Opposing filter boxes are two checkboxes here and one tri-state in the API
 * (`assigned`: true / false / unset), so the form keeps its own flat shape and converts on submit.
 */
export interface SegmentForm {
  name: string;
  icon: string;
  privacy: 'public' | 'private';
  my: boolean;
  assigned: boolean;
  unassigned: boolean;
  open: boolean;
  resolved: boolean;
  starred: boolean;
  channels: number[];
  groups: number[];
  agents: number[];
  tags: number[];
  property: string;
  propertyValue: string;
}

export const FORM_FIELDS = ['name', 'icon', 'privacy', 'my', 'assigned', 'unassigned', 'open', 'resolved', 'starred', 'channels', 'groups', 'agents', 'tags', 'property', 'propertyValue'] as const;

export function toForm(segment?: Segment | null): SegmentForm {
  const f = segment?.filters ?? {};
  return {
    name: segment?.name ?? '',
    icon: segment?.icon ?? '',
    privacy: segment && !segment.isPublic ? 'private' : 'public',
    my: f.my === true,
    assigned: f.assigned === true,
    unassigned: f.assigned === false,
    open: f.open === true,
    resolved: f.open === false,
    starred: f.starred === true,
    channels: f.channels ?? [],
    groups: f.groups ?? [],
    agents: f.agents ?? [],
    tags: f.tags ?? [],
    property: f.customerProps?.property ?? '',
    propertyValue: f.customerProps?.value ?? '',
  };
}

const tri = (yes: boolean, no: boolean) => (yes ? true : no ? false : undefined);

export function toBody(values: SegmentForm, id?: number): SegmentSaveBody {
  const property = values.property.trim();
  const isPublic = values.privacy === 'public';
  return {
    ...(id ? { id } : {}),
    name: values.name,
    icon: values.icon || null,
    isPublic,
    // A private filter belongs to its owner's own inbox; a public one to the workspace's.
    inbox: isPublic ? 'workspace' : 'me',
    filters: {
      my: values.my || undefined,
      assigned: tri(values.assigned, values.unassigned),
      open: tri(values.open, values.resolved),
      starred: values.starred || undefined,
      channels: values.channels,
      groups: values.groups,
      agents: values.agents,
      tags: values.tags,
      customerProps: property ? { property, value: values.propertyValue.trim() } : undefined,
    },
  };
}

/** Request keys (API error `key`s and zod paths) → the editor field that shows them. */
const KEY_TO_FIELD: [string, keyof SegmentForm][] = [
  ['filters.customerProps.value', 'propertyValue'],
  ['filters.customerProps', 'property'],
  ['filters.channels', 'channels'],
  ['filters.groups', 'groups'],
  ['filters.agents', 'agents'],
  ['filters.tags', 'tags'],
  ['filters.assigned', 'assigned'],
  ['filters.open', 'open'],
  ['filters.starred', 'starred'],
  ['filters.my', 'my'],
  ['isPublic', 'privacy'],
  ['inbox', 'privacy'],
  ['name', 'name'],
  ['icon', 'icon'],
];

export function fieldOfKey(key: string): keyof SegmentForm | undefined {
  return KEY_TO_FIELD.find(([k]) => key === k || key.startsWith(`${k}.`))?.[1];
}

/** Validates the converted body exactly like the API (SegmentSaveSchema) and puts each issue on the field that shows it. */
export const segmentResolver: Resolver<SegmentForm> = async (values) => {
  const result = await SegmentSaveSchema.safeParseAsync(toBody(values));
  if (result.success) return { values, errors: {} };
  const errors: Record<string, { type: string; message: string }> = {};
  for (const issue of result.error.issues) {
    const field = fieldOfKey(issue.path.map(String).join('.')) ?? 'root';
    errors[field] ??= { type: issue.code, message: issue.message };
  }
  return { values: {}, errors: errors as FieldErrors<SegmentForm> };
};
