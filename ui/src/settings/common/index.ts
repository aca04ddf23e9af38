/**
 * The generic settings list/detail pattern (SPEC §2). A new resource screen is a config plus a route:
 *
 * ```tsx
 * const config: ResourceScreenConfig<Hours, HoursForm> = {
 *   path: '/settings/business-hours', endpoint: '/business-hours',
 *   title: 'Horário comercial', newLabel: 'Novo', newTitle: 'Novo horário', editTitle: (r) => r.name,
 *   empty: 'Nenhum horário ainda.',
 *   columns: [{ label: 'Nome', render: (r) => r.name }],
 *   schema: BusinessHoursSchema,             // the area's shared zod schema
 *   toForm: (row) => ({ name: row?.name ?? '' }),
 *   fields: ['name'],                        // server ValidationError keys shown on fields
 *   Inputs: HoursInputs,                     // ({ control, row, disabled }) => form fields
 *   toasts: { created: 'Horário criado', updated: 'Horário atualizado' },
 * };
 * export const HoursScreen = () => <ResourceScreen config={config} />;
 * // in settings/index.tsx:
 * <Route path="business-hours/:id?" element={<RequireLevel level={6}><HoursScreen /></RequireLevel>} />
 * ```
 *
 * The list pages by 20 through either API list dialect, a row opens `path/{id}` in a dialog, 'new' opens
 * `path/new`, closing returns to `path`; saving and deleting (with DeleteConfirm) toast and refresh.
 */
export { ResourceScreen, PAGE_SIZE, type ResourceColumn, type ResourceInputsProps, type ResourceScreenConfig } from './ResourceScreen';
export { fetchAll, fetchResourcePage, resourceApi, truncate } from './resourceApi';
export { ColorSwatch } from './ColorSwatch';
export { IdMultiSelect } from './IdMultiSelect';
