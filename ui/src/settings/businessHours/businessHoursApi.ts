import type { BusinessHoursCreateReq } from '../../../../api/businessHours/schema';
import type { WeekSchedule } from '../../../../api/models/BusinessHours';
import { api } from '../../providers/httpClient';

/** A schedule as /api/business-hours answers it. */
export interface BusinessHoursRow {
  id: number;
  name: string;
  days: WeekSchedule;
  sort: number;
}

export const businessHoursKey = ['settings', 'business-hours'] as const;

export const businessHoursApi = {
  list: () => api<BusinessHoursRow[]>('/business-hours?limit=1000'),
  get: (id: number) => api<BusinessHoursRow>(`/business-hours/${id}`),
  create: (body: BusinessHoursCreateReq) => api<BusinessHoursRow>('/business-hours', { method: 'POST', body }),
  update: (id: number, body: BusinessHoursCreateReq) => api<BusinessHoursRow>(`/business-hours/${id}`, { method: 'PUT', body }),
  remove: (id: number) => api<BusinessHoursRow>(`/business-hours/${id}`, { method: 'DELETE' }),
};
