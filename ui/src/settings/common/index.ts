/**
 * The generic settings list/detail pattern (SPEC §2). A new resource screen is a config plus a route:
 *
 * ```tsx
 * const config: ResourceScreenConfig<Group, GroupForm> = {
 *   path: '/settings/groups', endpoint: '/group',
 *   title: 'Grupos', newLabel: 'Novo grupo', newTitle: 'Novo grupo', editTitle: (r) => r.name,
 *   empty: 'Nenhum grupo ainda.',
 *   columns: [{ label: 'Nome', render: (r) => r.name }],
 *   schema: GroupCreateSchema,               // the area's shared zod schema
 *   toForm: (row) => ({ name: row?.name ?? '' }),
 *   fields: ['name'],                        // server ValidationError keys shown on fields
 *   Inputs: GroupInputs,                     // ({ control, row, disabled }) => form fields
 *   toasts: { created: 'Grupo salvo', updated: 'Grupo salvo' },
 * };
 * export const GroupsScreen = () => <ResourceScreen config={config} />;
 * // in the area's index.tsx:
 * <Route path="groups/:id?" element={<RequireLevel level={6}><GroupsScreen /></RequireLevel>} />
 * ```
 *
 * The list pages by 20 through either API list dialect, a row opens `path/{id}`, 'new' opens `path/new`,
 * closing returns to `path`; saving and deleting (with DeleteConfirm) toast and refresh. The detail is a
 * dialog over the list, or with `detail: 'page'` a page of its own (long forms, records with a secret or a
 * log: business hours, assignment rules, plugins, webhook). `source` replaces the generic CRUD calls
 * (the webhook is one record behind GET/PUT /webhook), `Aside` shows extras under a saved record's form,
 * `switchColumn` puts an active toggle in the list.
 */
export { ResourceScreen, type ResourceAsideProps, type ResourceInputsProps, type ResourceScreenConfig } from './ResourceScreen';
export { PAGE_SIZE, ResourceList, type ResourceColumn } from './ResourceList';
export { FormActions } from './FormActions';
export { switchColumn } from './SwitchCell';
export { endpointSource, fetchAll, fetchResourcePage, resourceApi, truncate, type ResourcePage, type ResourceSource } from './resourceApi';
export { ColorSwatch } from './ColorSwatch';
export { IdMultiSelect } from './IdMultiSelect';
export { IdSelect } from './IdSelect';
export { CopyField, SecretField } from './SecretField';
