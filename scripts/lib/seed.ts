import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { hashPassword } from '../../api/auth/passwords';
import { TAG_COLOR_PAIRS } from '../../api/tags/colors';

export const DEMO_LOGIN = { email: 'demo@balcao.dev', password: 'balcao123' } as const;

const AGENTS = [
  { name: 'Ana Administradora', email: 'admin@balcao.dev', level: 9 },
  { name: 'Sérgio Supervisor', email: 'supervisor@balcao.dev', level: 6 },
  { name: 'Alice Agente', email: 'agente@balcao.dev', level: 3 },
  { name: 'Rui Restrito', email: 'restrito@balcao.dev', level: 2 },
] as const;

async function hasTable(knex: Knex, name: string): Promise<boolean> {
  return knex.schema.hasTable(name);
}

/**
 * The demo workspace of `npm start`, created once: the owner, one agent at each level 9/6/3/2 (same
 * password), two groups, tags, quick phrases and a chat-widget channel. Returns false when it already exists.
 */
export async function seedDemo(knex: Knex, options: { trialDays: number; publicUrl: string }): Promise<boolean> {
  const existing = await knex('operators').whereRaw('lower(email) = ?', [DEMO_LOGIN.email]).first('id');
  if (existing) return false;
  const passwordHash = await hashPassword(DEMO_LOGIN.password);
  await knex.transaction(async (trx) => {
    const [ws] = await trx('workspaces').insert({ name: 'Padaria Pão Quente', customerIdentifier: randomBytes(12).toString('hex') }).returning('id');
    const workspaceId = ws.id as number;
    const [owner] = await trx('operators').insert({ name: 'Dona Demo', email: DEMO_LOGIN.email, passwordHash, verificationLevel: 2 }).returning('id');
    await trx('workspace_members').insert({ workspaceId, operatorId: owner.id, accessLevel: 10 });
    const agentIds: Record<number, number> = {};
    for (const a of AGENTS) {
      const [op] = await trx('operators').insert({ name: a.name, email: a.email, passwordHash, verificationLevel: 2 }).returning('id');
      await trx('workspace_members').insert({ workspaceId, operatorId: op.id, accessLevel: a.level, invitedBy: owner.id });
      agentIds[a.level] = op.id as number;
    }
    await trx('subscriptions').insert({
      workspaceId,
      license: 'trial',
      status: 'active',
      agents: 5,
      numbers: 1,
      campaignUnits: 0,
      total: 449,
      expiresAt: new Date(Date.now() + options.trialDays * 86_400_000),
    });
    const tags = ['Vip', 'Reclamação', 'Orçamento', 'Entrega'];
    await trx('labels').insert(tags.map((name, i) => ({ workspaceId, name, ...TAG_COLOR_PAIRS[(i * 3) % TAG_COLOR_PAIRS.length], sort: i })));

    if (await hasTable(trx, 'groups')) {
      const groups = await trx('groups')
        .insert([
          { workspaceId, name: 'Atendimento', description: 'Dúvidas e pedidos do dia a dia', icon: '#2E90FA' },
          { workspaceId, name: 'Vendas', description: 'Encomendas e orçamentos', icon: '#12B76A' },
        ])
        .returning('id');
      if (await hasTable(trx, 'group_members')) {
        await trx('group_members').insert([
          { workspaceId, groupId: groups[0].id, operatorId: agentIds[3] },
          { workspaceId, groupId: groups[0].id, operatorId: agentIds[2] },
          { workspaceId, groupId: groups[1].id, operatorId: agentIds[6] },
          { workspaceId, groupId: groups[1].id, operatorId: agentIds[3] },
        ]);
      }
    }
    if (await hasTable(trx, 'quick_phrases')) {
      await trx('quick_phrases').insert([
        { workspaceId, operatorId: owner.id, tag: '/bomdia', phrase: 'Bom dia! Como posso ajudar?', privacy: 'public' },
        { workspaceId, operatorId: owner.id, tag: '/horario', phrase: 'Funcionamos de segunda a sábado, das 6h às 20h.', privacy: 'public' },
        { workspaceId, operatorId: owner.id, tag: '/obrigado', phrase: 'Obrigada pelo contato! Qualquer coisa, é só chamar.', privacy: 'private' },
      ]);
    }
    if (await hasTable(trx, 'channels')) {
      await trx('channels').insert({
        workspaceId,
        platformId: 4,
        type: 'widget',
        description: 'Chat do site',
        name: 'Chat do site',
        status: 'connected',
        identifier: randomBytes(16).toString('hex'),
        avatar: '#1570EF',
      });
    }
  });
  return true;
}
