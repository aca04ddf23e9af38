import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { TAG_COLOR_PAIRS } from '../../../api/tags/colors';
import { TRIAL_PLAN } from '../../../api/workspaces/provisionWorkspace';

export const DEMO_LOGIN = { email: 'demo@balcao.dev', password: 'balcao123' } as const;

/** The demo team by role: the owner and one agent at each level 9/6/3/2 (same password). */
export const MEMBERS = {
  owner: { name: 'Dona Demo', email: DEMO_LOGIN.email, level: 10 },
  admin: { name: 'Ana Administradora', email: 'admin@balcao.dev', level: 9 },
  supervisor: { name: 'Sérgio Supervisor', email: 'supervisor@balcao.dev', level: 6 },
  agent: { name: 'Alice Agente', email: 'agente@balcao.dev', level: 3 },
  restricted: { name: 'Rui Restrito', email: 'restrito@balcao.dev', level: 2 },
} as const;
export type Member = keyof typeof MEMBERS;

export const GROUPS = {
  atendimento: { name: 'Atendimento', description: 'Dúvidas e pedidos do dia a dia', icon: '#2E90FA', members: ['agent', 'restricted'] },
  vendas: { name: 'Vendas', description: 'Encomendas e orçamentos', icon: '#12B76A', members: ['supervisor', 'agent'] },
} as const satisfies Record<string, { name: string; description: string; icon: string; members: readonly Member[] }>;
export type GroupKey = keyof typeof GROUPS;

export const TAGS = { vip: 'Vip', reclamacao: 'Reclamação', orcamento: 'Orçamento', entrega: 'Entrega' } as const;
export type TagKey = keyof typeof TAGS;

/**
 * The address a member has while the demo is being written. The real addresses are given in the seed's
 * last step (publishTeam): until then the demo owner does not exist, so a start that dies half-way is
 * seen as not seeded, and what it left is recognised by these addresses and removed.
 */
export const SEEDING_DOMAIN = 'seeding.balcao.invalid';
const seedingEmail = (key: Member) => `${key}@${SEEDING_DOMAIN}`;

/** Ids of what the team module created, by the keys the other seed modules name them with. */
export interface Team {
  workspaceId: number;
  members: Record<Member, { id: number; level: number }>;
  groups: Record<GroupKey, number>;
  tags: Record<TagKey, number>;
  widget: { id: number; identifier: string };
}

/**
 * The workspace 'Padaria Pão Quente' with its trial, the team, two groups, tags, quick phrases and the
 * chat widget of its site (the channel the history and the bot use).
 */
export async function seedTeam(trx: Knex.Transaction, options: { trialDays: number; passwordHash: string }): Promise<Team> {
  const [ws] = await trx('workspaces').insert({ name: 'Padaria Pão Quente', customerIdentifier: randomBytes(12).toString('hex') }).returning('id');
  const workspaceId = ws.id as number;
  const members = {} as Team['members'];
  for (const key of Object.keys(MEMBERS) as Member[]) {
    const m = MEMBERS[key];
    const [op] = await trx('operators').insert({ name: m.name, email: seedingEmail(key), passwordHash: options.passwordHash, verificationLevel: 2 }).returning('id');
    await trx('workspace_members').insert({ workspaceId, operatorId: op.id, accessLevel: m.level, ...(key === 'owner' ? {} : { invitedBy: members.owner.id }) });
    members[key] = { id: op.id as number, level: m.level };
  }
  // One parallel campaign like Enterprise (a trial has 0), so a newcomer can try campaigns (docs/campaigns.md).
  await trx('subscriptions').insert({ workspaceId, ...TRIAL_PLAN, campaignUnits: 1, status: 'active', expiresAt: new Date(Date.now() + options.trialDays * 86_400_000) });

  const tags = {} as Team['tags'];
  for (const [i, key] of (Object.keys(TAGS) as TagKey[]).entries()) {
    const [row] = await trx('labels').insert({ workspaceId, name: TAGS[key], ...TAG_COLOR_PAIRS[(i * 3) % TAG_COLOR_PAIRS.length], sort: i }).returning('id');
    tags[key] = row.id as number;
  }

  const groups = {} as Team['groups'];
  for (const key of Object.keys(GROUPS) as GroupKey[]) {
    const g = GROUPS[key];
    const [row] = await trx('groups').insert({ workspaceId, name: g.name, description: g.description, icon: g.icon }).returning('id');
    groups[key] = row.id as number;
    await trx('group_members').insert(g.members.map((m) => ({ workspaceId, groupId: row.id, operatorId: members[m].id })));
  }

  await trx('quick_phrases').insert([
    { workspaceId, operatorId: members.owner.id, tag: '/bomdia', phrase: 'Bom dia! Como posso ajudar?', privacy: 'public' },
    { workspaceId, operatorId: members.owner.id, tag: '/horario', phrase: 'Funcionamos de segunda a sábado, das 6h às 20h, e domingo das 7h às 12h.', privacy: 'public' },
    { workspaceId, operatorId: members.owner.id, tag: '/encomenda', phrase: 'Encomendas de bolos e salgados pedimos com 24 horas de antecedência.', privacy: 'public' },
    { workspaceId, operatorId: members.owner.id, tag: '/obrigado', phrase: 'Obrigada pelo contato! Qualquer coisa, é só chamar.', privacy: 'private' },
  ]);

  const [widget] = await trx('channels')
    .insert({
      workspaceId,
      platformId: 4,
      type: 'widget',
      description: 'Chat do site',
      name: 'Chat do site',
      status: 'connected',
      identifier: randomBytes(16).toString('hex'),
      avatar: '#1570EF',
    })
    .returning(['id', 'identifier']);
  return { workspaceId, members, groups, tags, widget: { id: widget.id as number, identifier: widget.identifier as string } };
}

/** The demo's last step: the team gets its real addresses, and the demo owner can log in. */
export async function publishTeam(trx: Knex.Transaction, team: Team): Promise<void> {
  for (const key of Object.keys(MEMBERS) as Member[]) await trx('operators').where({ id: team.members[key].id }).update({ email: MEMBERS[key].email });
}

/** Removes what a seed that died half-way left: its workspace (everything in it goes with it) and its team. */
export async function removeInterruptedSeed(knex: Knex): Promise<void> {
  await knex.transaction(async (trx) => {
    const operators: number[] = await trx('operators').whereILike('email', `%@${SEEDING_DOMAIN}`).pluck('id');
    if (!operators.length) return;
    const workspaces: number[] = await trx('workspace_members').whereIn('operatorId', operators).where({ accessLevel: 10 }).distinct().pluck('workspace_id');
    if (workspaces.length) await trx('workspaces').whereIn('id', workspaces).delete();
    await trx('operators').whereIn('id', operators).delete();
  });
}
