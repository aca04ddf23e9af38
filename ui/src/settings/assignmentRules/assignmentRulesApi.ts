import { api } from '../../providers/httpClient';

export interface AssignmentRuleRow {
  id: number;
  name: string;
  isActive: boolean;
  rules: { group?: number | null; operator?: number | null; workspacePlatformId: number; businessHours?: number | null };
}

/** What the form's selects list: channels, groups, agents and schedules of the workspace. */
export interface Choice {
  id: number;
  name: string;
}

export const choicesKey = ['settings', '/assignment-rules', 'choices'] as const;

const names = (rows: { id: number; name?: string | null; description?: string | null; email?: string }[]): Choice[] =>
  rows.map((r) => ({ id: r.id, name: r.description || r.name || r.email || String(r.id) }));

/** The selects' choices, one call per reference list. */
export async function ruleChoices() {
  const [channels, groups, operators, businessHours] = await Promise.all([
    api<{ id: number; name: string; description: string }[]>('/integrations/channel?limit=1000'),
    api<{ id: number; name: string }[]>('/group?limit=1000'),
    api<{ id: number; name: string; email: string }[]>('/operator?limit=1000'),
    api<{ id: number; name: string }[]>('/business-hours?limit=1000'),
  ]);
  return { channels: names(channels), groups: names(groups), operators: names(operators), businessHours: names(businessHours) };
}

/** PUT with only the active flag (the list's toggle). */
export const setRuleActive = (id: number, isActive: boolean) => api<AssignmentRuleRow>(`/assignment-rules/${id}`, { method: 'PUT', body: { isActive } });
