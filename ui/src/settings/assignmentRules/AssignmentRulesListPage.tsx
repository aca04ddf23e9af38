import { useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import { texts } from '../../i18n/ptBR';
import { errorDescriptions } from '../../providers/httpClient';
import { assignmentRulesApi, assignmentRulesKey, type AssignmentRuleRow, type Choice } from './assignmentRulesApi';

const t = texts.assignmentRules;
export const choicesKey = [...assignmentRulesKey, 'choices'] as const;

const nameOf = (list: Choice[] | undefined, id: number | null | undefined) => (id == null ? undefined : (list?.find((c) => c.id === id)?.name ?? `#${id}`));

/** /settings/assignment-rules: the rules with their active toggle; a row opens its editor. */
export function AssignmentRulesListPage() {
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { data, error, isPending } = useQuery({ queryKey: assignmentRulesKey, queryFn: assignmentRulesApi.list });
  const { data: choices } = useQuery({ queryKey: choicesKey, queryFn: assignmentRulesApi.choices });
  const open = (row: AssignmentRuleRow) => void navigate(`/settings/assignment-rules/${row.id}`);

  const toggle = async (row: AssignmentRuleRow, isActive: boolean) => {
    // Optimistic: the switch moves at once and rolls back if the save fails.
    const set = (value: boolean) => queryClient.setQueryData<AssignmentRuleRow[]>(assignmentRulesKey, (rows) => rows?.map((r) => (r.id === row.id ? { ...r, isActive: value } : r)));
    set(isActive);
    try {
      await assignmentRulesApi.update(row.id, { isActive });
      notify(t.saved, { type: 'success' });
    } catch (err) {
      set(!isActive);
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    }
  };

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, maxWidth: 960 }}>
        <Typography variant="h5" component="h1" fontWeight={700} sx={{ flex: 1 }}>
          {t.title}
        </Typography>
        <Button component={RouterLink} to="/settings/assignment-rules/new" variant="contained" startIcon={<Add />}>
          {t.add}
        </Button>
      </Box>
      {error ? <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert> : null}
      {isPending ? <LinearProgress aria-label={texts.common.loading} /> : null}
      {data && data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, maxWidth: 720 }}>
          <Typography>{t.empty}</Typography>
        </Paper>
      ) : null}
      {data && data.length > 0 ? (
        <Paper variant="outlined" sx={{ maxWidth: 960 }}>
          <Table aria-label={t.title}>
            <TableHead>
              <TableRow>
                <TableCell>{t.columns.name}</TableCell>
                <TableCell>{t.columns.channel}</TableCell>
                <TableCell>{t.columns.target}</TableCell>
                <TableCell>{t.columns.active}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((row) => (
                <TableRow key={row.id} hover tabIndex={0} sx={{ cursor: 'pointer' }} onClick={() => open(row)} onKeyDown={(e) => e.key === 'Enter' && open(row)}>
                  <TableCell>{row.name}</TableCell>
                  <TableCell>{nameOf(choices?.channels, row.rules.workspacePlatformId)}</TableCell>
                  <TableCell>{[nameOf(choices?.groups, row.rules.group), nameOf(choices?.operators, row.rules.operator)].filter(Boolean).join(' · ')}</TableCell>
                  <TableCell onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
                    <Switch checked={row.isActive} onChange={(e) => void toggle(row, e.target.checked)} slotProps={{ input: { 'aria-label': `${t.isActive}: ${row.name}` } }} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      ) : null}
    </>
  );
}
