import { useMemo, useRef, useState, type ComponentType } from 'react';
import { useForm, type Control, type DefaultValues, type FieldValues } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { keepPreviousData, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Add from '@mui/icons-material/Add';
import { texts } from '../../i18n/ptBR';
import { zodResolver } from '../../forms/zodResolver';
import { applyServerErrors, hiddenFieldErrors } from '../../forms/serverErrors';
import { errorDescriptions } from '../../providers/httpClient';
import { DeleteConfirm } from '../../common/DeleteConfirm';
import { errorLink, PlanLimitToast } from '../../common/PlanLimitToast';
import { SettingsPage } from '../SettingsPage';
import { endpointSource, type ResourceSource } from './resourceApi';
import { NewItemLink, PAGE_SIZE, type ResourceColumn, ResourceList } from './ResourceList';
import { FormActions } from './FormActions';

const t = texts.settingsResources;

export interface ResourceInputsProps<Form extends FieldValues, Row> {
  control: Control<Form>;
  /** The saved row; undefined on the 'new' form. */
  row?: Row;
  disabled: boolean;
}

/** What a detail shows under its form (a secret, a delivery log); `replaceRow` stores a fresher copy of the row. */
export interface ResourceAsideProps<Row> {
  row: Row;
  replaceRow: (row: Row) => void;
}

type RowText<Row> = string | ((row: Row) => string);

/**
 * The texts a settings list screen takes from its i18n section (`title`, `add`, `newTitle`, `empty`), with
 * how a row is named in its detail's title.
 */
export function screenTexts<Row>(t: { title: string; add: string; newTitle: string; empty: string }, editTitle: (row: Row) => string) {
  return { title: t.title, newLabel: t.add, newTitle: t.newTitle, editTitle, empty: t.empty };
}

export interface ResourceScreenConfig<Row extends { id: number }, Form extends FieldValues> {
  /** The list's route, e.g. '/settings/tags'; the detail lives at `${path}/{id}` and `${path}/new`. */
  path: string;
  /** API path under /api, e.g. '/label'; also the screen's query-cache key. */
  endpoint: string;
  /** Where rows come from when the API is not the generic list/GET/PUT/DELETE/POST of `endpoint`. */
  source?: ResourceSource<Row>;
  title: string;
  /** Text of the 'new' action; without it the screen has no 'new' (its form). */
  newLabel?: string;
  newTitle: string;
  editTitle: (row: Row) => string;
  empty: string;
  columns: ResourceColumn<Row>[];
  /**
   * 'dialog' (default): the detail opens over the list and closes after saving. 'page': the detail is a
   * page of its own (long forms, records with a secret or a log); 'new' is a link to it, a created record
   * stays open at `path/{id}`, 'Voltar' returns to the list.
   */
  detail?: 'dialog' | 'page';
  /** One record per workspace (webhook): 'new' is offered only while the list is empty. */
  single?: boolean;
  /** The area's shared zod schema (api/<area>/schema.ts); `updateSchema` when editing differs. */
  schema: z.ZodType;
  updateSchema?: z.ZodType;
  /** Form values for 'new' (no row) or for editing a row. */
  toForm: (row?: Row) => DefaultValues<Form>;
  /** Field names the server's ValidationError keys may point at. */
  fields: readonly string[];
  Inputs: ComponentType<ResourceInputsProps<Form, Row>>;
  /** Shown under the form of a saved record. */
  Aside?: ComponentType<ResourceAsideProps<Row>>;
  /** The form is read-only for this row (SPEC §5: oneself, equal or higher level). */
  readOnly?: (row: Row) => boolean;
  /** Hides the delete button (resources the API does not delete). */
  deletable?: boolean;
  deleteTitle?: string;
  /** Other caches a save or delete makes stale (e.g. the inbox's plugin tabs). */
  invalidates?: QueryKey[];
  toasts: { created: RowText<Row>; updated: RowText<Row>; deleted?: string };
}

const idOf = (raw: string | undefined): number | 'new' | undefined => (raw === 'new' ? 'new' : raw && /^\d+$/.test(raw) ? Number(raw) : undefined);
const textOf = <Row,>(text: RowText<Row>, row: Row) => (typeof text === 'function' ? text(row) : text);

/**
 * A settings resource screen (SPEC §2 generic list/detail pages): the table with server paging, row click
 * opening the detail at `path/{id}`, 'new' at `path/new`, closing back to `path`. Mount it on the route
 * `${path}/:id?`.
 */
export function ResourceScreen<Row extends { id: number }, Form extends FieldValues>({ config }: { config: ResourceScreenConfig<Row, Form> }) {
  const { id: rawId } = useParams();
  const navigate = useNavigate();
  const [page, setPage] = useState(0);
  const source = useMemo(() => config.source ?? endpointSource<Row>(config.endpoint), [config]);
  const asPage = config.detail === 'page';
  // The record just created on the 'new' page: its detail keeps the same form (what is typed meanwhile stays).
  const created = useRef<number | undefined>(undefined);
  const { data, error, isPending, isFetching } = useQuery({
    queryKey: ['settings', config.endpoint, 'list', page],
    queryFn: ({ signal }) => source.page(page, PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
    enabled: !(asPage && rawId !== undefined),
  });

  if (rawId !== undefined) {
    const selected = idOf(rawId);
    if (selected === 'new') created.current = undefined;
    const key = selected !== undefined && selected === created.current ? 'new' : rawId;
    const detail = (
      <ResourceDetail
        key={key}
        config={config}
        source={source}
        id={selected === 'new' && !config.newLabel ? undefined : selected}
        onClose={() => void navigate(config.path)}
        onCreated={(id) => (created.current = id)}
      />
    );
    if (asPage) return detail;
    return (
      <>
        <ScreenList config={config} page={page} setPage={setPage} data={data} error={error} loading={isPending || isFetching} />
        {detail}
      </>
    );
  }
  return <ScreenList config={config} page={page} setPage={setPage} data={data} error={error} loading={isPending || isFetching} />;
}

function ScreenList<Row extends { id: number }, Form extends FieldValues>({
  config,
  page,
  setPage,
  data,
  error,
  loading,
}: {
  config: ResourceScreenConfig<Row, Form>;
  page: number;
  setPage: (page: number) => void;
  data: { rows: Row[]; total: number } | undefined;
  error: unknown;
  loading: boolean;
}) {
  const navigate = useNavigate();
  const offerNew = config.newLabel && (!config.single || data?.total === 0);
  const newPath = `${config.path}/new`;
  const action = !offerNew ? null : config.detail === 'page' ? (
    // A page is a place: a link. A dialog opens over the list: a button.
    <NewItemLink to={newPath}>{config.newLabel}</NewItemLink>
  ) : (
    <Button variant="contained" startIcon={<Add />} onClick={() => void navigate(newPath)}>
      {config.newLabel}
    </Button>
  );
  return (
    <ResourceList
      title={config.title}
      action={action}
      empty={config.empty}
      columns={config.columns}
      rows={data?.rows}
      total={data?.total ?? 0}
      page={page}
      onPageChange={setPage}
      onOpen={(row) => void navigate(`${config.path}/${row.id}`)}
      error={error}
      loading={loading}
    />
  );
}

function ResourceDetail<Row extends { id: number }, Form extends FieldValues>({
  config,
  source,
  id,
  onClose,
  onCreated,
}: {
  config: ResourceScreenConfig<Row, Form>;
  source: ResourceSource<Row>;
  id: number | 'new' | undefined;
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const isNew = id === 'new';
  const queryClient = useQueryClient();
  const oneKey = ['settings', config.endpoint, 'one', id];
  const { data: row, error } = useQuery({
    queryKey: oneKey,
    queryFn: () => source.get(id as number),
    enabled: typeof id === 'number',
    retry: false,
    gcTime: 0,
  });
  // A fetch still under way would put the older row back over the fresher one.
  const replaceRow = async (fresh: Row) => {
    await queryClient.cancelQueries({ queryKey: oneKey });
    queryClient.setQueryData(oneKey, fresh);
  };
  const title = isNew ? config.newTitle : row ? config.editTitle(row) : config.title;
  const failure = id === undefined || error ? (id === undefined ? texts.common.notFound : errorDescriptions(error).join(' ')) : undefined;
  const form = isNew || row ? <ResourceForm config={config} source={source} row={row} onClose={onClose} onCreated={onCreated} /> : undefined;
  const aside =
    config.Aside && row && !failure ? <config.Aside row={row} replaceRow={(fresh) => void replaceRow(fresh)} /> : null;

  if (config.detail === 'page') {
    return (
      <SettingsPage title={title}>
        {failure ? (
          <>
            <Alert severity="error">{failure}</Alert>
            <Button component={RouterLink} to={config.path} sx={{ mt: 2 }}>
              {t.back}
            </Button>
          </>
        ) : (
          (form ?? <LinearProgress aria-label={texts.common.loading} />)
        )}
        {aside}
      </SettingsPage>
    );
  }
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="resource-detail-title">
      <DialogTitle id="resource-detail-title">{title}</DialogTitle>
      {failure ? (
        <>
          <DialogContent>
            <Alert severity="error">{failure}</Alert>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{texts.common.close}</Button>
          </DialogActions>
        </>
      ) : (
        (form ?? (
          <DialogContent>
            <LinearProgress aria-label={texts.common.loading} />
          </DialogContent>
        ))
      )}
      {aside ? <DialogContent>{aside}</DialogContent> : null}
    </Dialog>
  );
}

function ResourceForm<Row extends { id: number }, Form extends FieldValues>({
  config,
  source,
  row,
  onClose,
  onCreated,
}: {
  config: ResourceScreenConfig<Row, Form>;
  source: ResourceSource<Row>;
  row?: Row;
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const asPage = config.detail === 'page';
  const readOnly = row ? (config.readOnly?.(row) ?? false) : false;
  // The form takes the record once (it is keyed by id): a background refetch never overwrites typing.
  const { control, handleSubmit, setError, reset, formState } = useForm<Form>({
    resolver: zodResolver<Form>(row ? (config.updateSchema ?? config.schema) : config.schema),
    defaultValues: config.toForm(row),
  });

  // Errors on no visible field (a schema's root, a key the form does not show) still need saying.
  const stray = hiddenFieldErrors(formState.errors as Record<string, { message?: unknown } | undefined>, config.fields);
  // The list, the pickers fed by this endpoint, and whatever else the config names.
  const refresh = () => Promise.all([['settings', config.endpoint], ...(config.invalidates ?? [])].map((queryKey) => queryClient.invalidateQueries({ queryKey })));

  const submit = handleSubmit(async (values) => {
    try {
      const saved = row ? await source.update(row.id, values) : await source.create(values);
      notify(textOf(row ? config.toasts.updated : config.toasts.created, saved), { type: 'success' });
      await refresh();
      if (!asPage) onClose();
      else if (row) {
        queryClient.setQueryData(['settings', config.endpoint, 'one', row.id], saved);
        reset(config.toForm(saved));
      } else {
        // The created record opens at its own path, straight from the answer, in this same form.
        queryClient.setQueryData(['settings', config.endpoint, 'one', saved.id], saved);
        reset(config.toForm(saved));
        onCreated(saved.id);
        void navigate(`${config.path}/${saved.id}`, { replace: true });
      }
    } catch (err) {
      const link = errorLink(err);
      for (const message of applyServerErrors(err, config.fields, setError)) notify(link ? <PlanLimitToast message={message} link={link} /> : message, { type: 'error' });
    }
  });

  const remove = async () => {
    if (!row || !source.remove) return;
    setDeleting(true);
    try {
      await source.remove(row.id);
      await refresh();
      notify(config.toasts.deleted ?? texts.inboxPanels.deleted, { type: 'success' });
      onClose();
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
      setDeleting(false);
      setConfirming(false);
    }
  };

  const { Inputs } = config;
  const canDelete = row && source.remove && config.deletable !== false && !readOnly;
  const actions = (
    <FormActions
      back={asPage ? { label: t.back, to: config.path } : { label: texts.common.cancel, onClick: onClose }}
      onDelete={canDelete ? () => setConfirming(true) : undefined}
      saving={formState.isSubmitting}
      saveDisabled={readOnly}
    />
  );
  const body = (
    <>
      {readOnly ? (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t.readOnly}
        </Alert>
      ) : null}
      <Inputs control={control} row={row} disabled={readOnly || formState.isSubmitting} />
      {stray.length > 0 ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {stray.join(' ')}
        </Alert>
      ) : null}
    </>
  );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      {asPage ? (
        <>
          {body}
          <DialogActions sx={{ px: 0, pt: 2 }}>{actions}</DialogActions>
        </>
      ) : (
        <>
          <DialogContent>{body}</DialogContent>
          <DialogActions>{actions}</DialogActions>
        </>
      )}
      {canDelete ? (
        <DeleteConfirm isOpen={confirming} loading={deleting} title={config.deleteTitle ?? t.deleteTitle} onConfirm={() => void remove()} onClose={() => setConfirming(false)} />
      ) : null}
    </form>
  );
}
