import type { AppDeps } from '../deps';
import { resourceRouter } from '../crud/resourceRouter';
import { BusinessHours } from '../models/BusinessHours';
import { BusinessHoursCreateSchema, BusinessHoursUpdateSchema, type BusinessHoursCreateReq, type BusinessHoursUpdateReq } from './schema';
import { defaultDays } from './schedule';

export function presentBusinessHours(row: BusinessHours) {
  return { id: row.id, name: row.name, days: row.days, sort: row.sort, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/** /api/business-hours: level 6+ reads and writes (SPEC §6); bots and rules, which pick from them, are 6+ too. */
export function businessHoursRouter(deps: AppDeps) {
  return resourceRouter<BusinessHours, BusinessHoursCreateReq, BusinessHoursUpdateReq>(deps, {
    path: '/business-hours',
    resource: 'business-hours',
    model: BusinessHours,
    createSchema: BusinessHoursCreateSchema,
    updateSchema: BusinessHoursUpdateSchema,
    readAction: 'businessHours.manage',
    writeAction: 'businessHours.manage',
    list: { sortable: ['name', 'sort', 'createdAt', 'id'], defaultSort: { field: 'sort', order: 'asc' }, searchColumns: ['name'], maxLimit: 1000 },
    sortColumn: 'sort',
    present: presentBusinessHours,
    toColumns(input, _actor, _trx, mode) {
      if (mode === 'create') return { ...input, days: input.days ?? defaultDays() };
      return input;
    },
  });
}
