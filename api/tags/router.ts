import type { AppDeps } from '../deps';
import { resourceRouter } from '../crud/resourceRouter';
import { Label } from '../models/Label';
import { TagCreateSchema, TagUpdateSchema } from './schema';

export function presentTag(row: Label) {
  return { id: row.id, name: row.name, color: row.color, textColor: row.textColor, sort: row.sort, createdAt: row.createdAt };
}

/** Tags ("Etiquetas") at /api/label: open to every level (SPEC §6). */
export function tagsRouter(deps: AppDeps) {
  return resourceRouter(deps, {
    path: '/label',
    resource: 'label',
    model: Label,
    createSchema: TagCreateSchema,
    updateSchema: TagUpdateSchema,
    readAction: 'tags.manage',
    writeAction: 'tags.manage',
    list: { sortable: ['name', 'sort', 'createdAt', 'id'], defaultSort: { field: 'sort', order: 'asc' }, searchColumns: ['name'], maxLimit: 1000 },
    sortColumn: 'sort',
    present: presentTag,
  });
}
