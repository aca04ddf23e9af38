import { useState, type ComponentType, type ReactNode } from 'react';
import { useForm, type Control, type DefaultValues, type FieldValues } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { texts } from '../../i18n/ptBR';
import { zodResolver } from '../../forms/zodResolver';
import { applyServerErrors, failureToasts, hiddenFieldErrors } from '../../forms/serverErrors';
import { errorDescriptions } from '../../providers/httpClient';
import { DeleteConfirm } from '../../common/DeleteConfirm';
import { fetchResourcePage, resourceApi } from './resourceApi';

const t = texts.settingsResources;
/** SPEC §9: tables show 20 rows a page. */
export const PAGE_SIZE = 20;

export interface ResourceColumn<Row> {
  label: string;
  render: (row: Row) => ReactNode;
  /** Full text for the cell's tooltip when `render` truncates. */
  title?: (row: Row) => string | undefined;
}

export interface ResourceInputsProps<Form extends FieldValues, Row> {
  control: Control<Form>;
  /** The saved row; undefined on the 'new' form. */
  row?: Row;
  disabled: boolean;
}

export interface ResourceScreenConfig<Row extends { id: number }, Form extends FieldValues> {
  /** The list's route, e.g. '/settings/tags'; the detail lives at `${path}/{id}` and `${path}/new`. */
  path: string;
  /** API path under /api, e.g. '/label' (list, GET/PUT/DELETE /:id, POST). */
  endpoint: string;
  title: string;
  /** Text of the 'new' button; without it the screen has no 'new' (its form). */
  newLabel?: string;
  newTitle: string;
  editTitle: (row: Row) => string;
  empty: string;
  columns: ResourceColumn<Row>[];
  /** The area's shared zod schema (api/<area>/schema.ts); `updateSchema` when editing differs. */
  schema: z.ZodType;
  updateSchema?: z.ZodType;
  /** Form values for 'new' (no row) or for editing a row. */
  toForm: (row?: Row) => DefaultValues<Form>;
  /** Field names the server's ValidationError keys may point at. */
  fields: readonly string[];
  Inputs: ComponentType<ResourceInputsProps<Form, Row>>;
  /** The form is read-only for this row (SPEC §5: oneself, equal or higher level). */
  readOnly?: (row: Row) => boolean;
  /** Hides the delete button (resources the API does not delete). */
  deletable?: boolean;
  toasts: { created: string; updated: string; deleted?: string };
}

const idOf = (raw: string | undefined): number | 'new' | undefined => (raw === 'new' ? 'new' : raw && /^\d+$/.test(raw) ? Number(raw) : undefined);

/**
 * A settings resource screen (SPEC §2 generic list/detail pages): the table with server paging, row click
 * opening the detail at `path/{id}`, 'new' at `path/new`, closing back to `path`. Mount it on the route
 * `${path}/:id?`.
 */
export function ResourceScreen<Row extends { id: number }, Form extends FieldValues>({ config }: { config: ResourceScreenConfig<Row, Form> }) {
  const { id: rawId } = useParams();
  const navigate = useNavigate();
  const [page, setPage] = useState(0);
  const listKey = ['settings', config.endpoint, 'list'];
  const { data, error, isPending, isFetching } = useQuery({
    queryKey: [...listKey, page],
    queryFn: ({ signal }) => fetchResourcePage<Row>(config.endpoint, page, PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
  });
  const selected = idOf(rawId);
  const open = (row: Row) => void navigate(`${config.path}/${row.id}`);

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, maxWidth: 960 }}>
        <Typography variant="h5" component="h1" fontWeight={700} sx={{ flex: 1 }}>
          {config.title}
        </Typography>
        {config.newLabel ? (
          <Button variant="contained" startIcon={<Add />} onClick={() => void navigate(`${config.path}/new`)}>
            {config.newLabel}
          </Button>
        ) : null}
      </Box>
      {error ? <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert> : null}
      {isPending || isFetching ? <LinearProgress aria-label={texts.common.loading} sx={{ maxWidth: 960 }} /> : null}
      {data && data.total === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, maxWidth: 720 }}>
          <Typography>{config.empty}</Typography>
        </Paper>
      ) : null}
      {data && data.total > 0 ? (
        <Paper variant="outlined" sx={{ maxWidth: 960 }}>
          <Table aria-label={config.title}>
            <TableHead>
              <TableRow>
                {config.columns.map((c) => (
                  <TableCell key={c.label}>{c.label}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data.rows.map((row) => (
                <TableRow
                  key={row.id}
                  hover
                  tabIndex={0}
                  sx={{ cursor: 'pointer' }}
                  onClick={() => open(row)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') open(row);
                  }}
                >
                  {config.columns.map((c) => (
                    <TableCell key={c.label} title={c.title?.(row)}>
                      {c.render(row)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {data.total > PAGE_SIZE ? (
            <TablePagination
              component="div"
              count={data.total}
              page={page}
              rowsPerPage={PAGE_SIZE}
              rowsPerPageOptions={[PAGE_SIZE]}
              onPageChange={(_, p) => setPage(p)}
              labelDisplayedRows={({ from, to, count }) => `${from}–${to} de ${count}`}
            />
          ) : null}
        </Paper>
      ) : null}
      {rawId !== undefined ? (
        <ResourceDetail
          key={rawId}
          config={config}
          id={selected === 'new' && !config.newLabel ? undefined : selected}
          onClose={() => void navigate(config.path)}
          listKey={listKey}
        />
      ) : null}
    </>
  );
}

function ResourceDetail<Row extends { id: number }, Form extends FieldValues>({
  config,
  id,
  onClose,
  listKey,
}: {
  config: ResourceScreenConfig<Row, Form>;
  id: number | 'new' | undefined;
  onClose: () => void;
  listKey: string[];
}) {
  const isNew = id === 'new';
  const { data: row, error } = useQuery({
    queryKey: ['settings', config.endpoint, 'one', id],
    queryFn: () => resourceApi.get<Row>(config.endpoint, id as number),
    enabled: typeof id === 'number',
    retry: false,
    gcTime: 0,
  });
  const title = isNew ? config.newTitle : row ? config.editTitle(row) : config.title;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="resource-detail-title">
      <DialogTitle id="resource-detail-title">{title}</DialogTitle>
      {id === undefined || error ? (
        <>
          <DialogContent>
            <Alert severity="error">{id === undefined ? texts.common.notFound : errorDescriptions(error).join(' ')}</Alert>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{texts.common.close}</Button>
          </DialogActions>
        </>
      ) : isNew || row ? (
        <ResourceForm config={config} row={row} onClose={onClose} listKey={listKey} />
      ) : (
        <DialogContent>
          <LinearProgress aria-label={texts.common.loading} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function ResourceForm<Row extends { id: number }, Form extends FieldValues>({
  config,
  row,
  onClose,
  listKey,
}: {
  config: ResourceScreenConfig<Row, Form>;
  row?: Row;
  onClose: () => void;
  listKey: string[];
}) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const readOnly = row ? (config.readOnly?.(row) ?? false) : false;
  const { control, handleSubmit, setError, formState } = useForm<Form>({
    resolver: zodResolver<Form>(row ? (config.updateSchema ?? config.schema) : config.schema),
    defaultValues: config.toForm(row),
  });

  // Errors on no visible field (a schema's root, a key the form does not show) still need saying.
  const stray = hiddenFieldErrors(formState.errors as Record<string, { message?: unknown } | undefined>, config.fields);

  const submit = handleSubmit(async (values) => {
    try {
      if (row) await resourceApi.update<Row>(config.endpoint, row.id, values);
      else await resourceApi.create<Row>(config.endpoint, values);
      await queryClient.invalidateQueries({ queryKey: ['settings', config.endpoint] });
      notify(row ? config.toasts.updated : config.toasts.created, { type: 'success' });
      onClose();
    } catch (err) {
      applyServerErrors(err, config.fields, setError);
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  });

  const remove = async () => {
    if (!row) return;
    setDeleting(true);
    try {
      await resourceApi.remove(config.endpoint, row.id);
      await queryClient.invalidateQueries({ queryKey: listKey });
      notify(config.toasts.deleted ?? texts.inboxPanels.deleted, { type: 'success' });
      onClose();
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
      setDeleting(false);
      setConfirming(false);
    }
  };

  const { Inputs } = config;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <DialogContent>
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
      </DialogContent>
      <DialogActions>
        {row && config.deletable !== false && !readOnly ? (
          <Button color="error" startIcon={<DeleteOutline />} onClick={() => setConfirming(true)} sx={{ mr: 'auto' }}>
            {t.delete}
          </Button>
        ) : null}
        <Button onClick={onClose}>{texts.common.cancel}</Button>
        <Button type="submit" variant="contained" disabled={readOnly} loading={formState.isSubmitting}>
          {texts.common.save}
        </Button>
      </DialogActions>
      {row ? (
        <DeleteConfirm isOpen={confirming} loading={deleting} title={t.deleteTitle} onConfirm={() => void remove()} onClose={() => setConfirming(false)} />
      ) : null}
    </form>
  );
}
