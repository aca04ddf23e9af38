import { useMemo } from 'react';
import { useController, type Control } from 'react-hook-form';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { InviteOperatorSchema, MemberUpdateSchema } from '../../../../api/auth/schema';
import { ACCESS_LEVEL_LABELS, type AccessLevelValue } from '../../../../api/policy/levels';
import { canManageMember, grantableLevels, type Actor } from '../../../../api/policy/policy';
import { texts } from '../../i18n/ptBR';
import { FormTextField } from '../../forms/FormTextField';
import { useSession } from '../../providers/session';
import { IdMultiSelect, ResourceScreen, truncate, type ResourceInputsProps, type ResourceScreenConfig } from '../common';
import { inboxKeys } from '../../inbox/queryKeys';
import { PresenceDot } from '../../common/PresenceDot';
import { presenceOf } from '../../layout/availability';

const t = texts.settingsResources.members;
const common = texts.settingsResources;

export interface MemberRow {
  id: number;
  name: string;
  email: string;
  accessLevel: AccessLevelValue;
  isActive: boolean;
  verificationLevel: number;
  isOnline?: boolean;
  availability?: 'online' | 'ausente';
}

/** Invite (name, e-mail, level, groups) or edit (level, active): one form type, each schema is strict about its keys. */
type MemberForm = { name?: string; email?: string; accessLevel?: number; groups?: number[]; isActive?: boolean };

const levelLabel = (level: number) => ACCESS_LEVEL_LABELS[level as AccessLevelValue] ?? String(level);

function LevelSelect({ control, levels, disabled }: { control: Control<MemberForm>; levels: number[]; disabled: boolean }) {
  const { field, fieldState } = useController({ name: 'accessLevel', control });
  return (
    <TextField
      select
      id="field-accessLevel"
      label={t.level}
      required
      fullWidth
      margin="normal"
      disabled={disabled}
      name={field.name}
      value={field.value ?? ''}
      onChange={(e) => field.onChange(Number(e.target.value))}
      inputRef={field.ref}
      error={fieldState.invalid}
      helperText={fieldState.error?.message}
    >
      {levels.map((level) => (
        <MenuItem key={level} value={level}>
          {levelLabel(level)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Only on the edit form: registering `isActive` on the invite would send a key the strict invite schema refuses. */
function ActiveSwitch({ control, disabled }: { control: Control<MemberForm>; disabled: boolean }) {
  const { field } = useController({ name: 'isActive', control });
  return <FormControlLabel control={<Switch checked={Boolean(field.value)} onChange={(e) => field.onChange(e.target.checked)} disabled={disabled} />} label={t.active} />;
}

function makeInputs(actor: Actor) {
  // SPEC §5: levels offered are at or below the inviter's and below owner.
  const offered: number[] = grantableLevels(actor);
  return function MemberInputs({ control, row, disabled }: ResourceInputsProps<MemberForm, MemberRow>) {
    if (!row) {
      return (
        <>
          <FormTextField control={control} name="name" label={t.name} required disabled={disabled} autoFocus />
          <FormTextField control={control} name="email" label={t.email} type="email" required disabled={disabled} />
          <LevelSelect control={control} levels={offered} disabled={disabled} />
          <IdMultiSelect control={control} name="groups" label={t.groups} endpoint="/group" disabled={disabled} />
        </>
      );
    }
    // A read-only form still shows the member's own level even if it is not one the actor may give.
    const levels = offered.includes(row.accessLevel) ? offered : [row.accessLevel, ...offered];
    return (
      <>
        <Typography fontWeight={600}>{row.name}</Typography>
        <Typography color="text.secondary" sx={{ wordBreak: 'break-all' }}>
          {row.email}
        </Typography>
        <LevelSelect control={control} levels={levels} disabled={disabled} />
        <ActiveSwitch control={control} disabled={disabled} />
      </>
    );
  };
}

/** /settings/members/:id? — level 6+: invite ('Convidar'), change level and active flag (SPEC §2, §5, §6). */
export function MembersScreen() {
  const session = useSession();
  const actor: Actor = {
    operatorId: session?.user.id ?? 0,
    workspaceId: session?.workspace.workspaceId ?? 0,
    accessLevel: (session?.workspace.accessLevel ?? 0) as AccessLevelValue,
    kind: 'operator',
  };
  const config = useMemo<ResourceScreenConfig<MemberRow, MemberForm>>(
    () => ({
      path: '/settings/members',
      endpoint: '/operator',
      title: t.title,
      newLabel: t.invite,
      newTitle: t.inviteTitle,
      editTitle: (row) => row.name,
      empty: t.empty,
      columns: [
        { label: t.columns.name, render: (row) => row.name },
        // SPEC §9: e-mail truncated at 30.
        { label: t.columns.email, render: (row) => truncate(row.email, 30), title: (row) => row.email },
        { label: t.columns.level, render: (row) => levelLabel(row.accessLevel) },
        { label: t.columns.active, render: (row) => (row.isActive ? common.yes : common.no) },
        { label: t.columns.status, render: (row) => (row.verificationLevel === 0 ? t.pending : t.complete) },
        {
          label: t.columns.presence,
          // Kept live by member.availability (layout/availability.ts).
          render: (row) => (
            <span data-testid={`presence-${row.id}`} data-presence={presenceOf(row)} style={{ display: 'inline-flex', alignItems: 'center', gap: 6, whiteSpace: 'nowrap' }}>
              <PresenceDot state={presenceOf(row)} />
              {texts.layout.availability[presenceOf(row)]}
            </span>
          ),
        },
      ],
      schema: InviteOperatorSchema,
      updateSchema: MemberUpdateSchema,
      toForm: (row) => (row ? { accessLevel: row.accessLevel, isActive: row.isActive } : { name: '', email: '', accessLevel: undefined, groups: [] }),
      fields: ['name', 'email', 'accessLevel', 'groups', 'isActive'],
      Inputs: makeInputs(actor),
      readOnly: (row) => !canManageMember(actor, { operatorId: row.id, accessLevel: row.accessLevel }),
      deletable: false,
      // The inbox's agent menu reads them too (cached for minutes).
      invalidates: [inboxKeys.agents()],
      toasts: { created: t.invited, updated: t.updated },
    }),
    [actor.operatorId, actor.accessLevel],
  );
  return <ResourceScreen config={config} />;
}
