import type { Knex } from 'knex';

/** Workspaces, operators and their memberships, account tokens, subscriptions and tags (labels). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workspaces', (t) => {
    t.increments('id');
    t.string('name', 120).notNullable();
    t.string('avatar', 500);
    t.string('customer_identifier', 64).notNullable().unique();
    t.string('time_zone', 64).notNullable().defaultTo('America/Sao_Paulo');
    t.jsonb('power_ups').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('operators', (t) => {
    t.increments('id');
    t.string('name', 120).notNullable();
    t.string('email', 254).notNullable();
    t.string('phone', 32);
    t.string('avatar', 500);
    t.string('password_hash', 255);
    // 0: invited, registration not completed; 1: e-mail not verified; 2: verified.
    t.smallint('verification_level').notNullable().defaultTo(1);
    // Bumped on password change: every older token of this operator stops working.
    t.integer('token_version').notNullable().defaultTo(0);
    t.jsonb('preferences').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX operators_email_unique ON operators (lower(email))');
  await knex.raw('ALTER TABLE operators ADD CONSTRAINT operators_verification_level_check CHECK (verification_level IN (0, 1, 2))');

  await knex.schema.createTable('workspace_members', (t) => {
    t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.integer('operator_id').notNullable().references('operators.id').onDelete('CASCADE');
    t.smallint('access_level').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    // Bumped on deactivation or level change: the member's older tokens for this workspace stop working.
    t.integer('token_version').notNullable().defaultTo(0);
    t.integer('invited_by').references('operators.id').onDelete('SET NULL');
    t.boolean('is_online').notNullable().defaultTo(false);
    t.timestamp('last_seen_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'operator_id']);
  });
  await knex.raw('CREATE INDEX workspace_members_operator_idx ON workspace_members (operator_id)');
  await knex.raw('ALTER TABLE workspace_members ADD CONSTRAINT workspace_members_access_level_check CHECK (access_level IN (2, 3, 6, 9, 10))');

  await knex.schema.createTable('account_tokens', (t) => {
    t.increments('id');
    t.string('purpose', 20).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.integer('operator_id').notNullable().references('operators.id').onDelete('CASCADE');
    t.integer('workspace_id').references('workspaces.id').onDelete('CASCADE');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_purpose_check CHECK (purpose IN ('reset_password', 'confirm_email', 'invite', 'renewal'))",
  );
  await knex.raw('CREATE INDEX account_tokens_operator_idx ON account_tokens (operator_id, purpose)');

  await knex.schema.createTable('subscriptions', (t) => {
    t.increments('id');
    t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('license', 20).notNullable();
    t.string('status', 20).notNullable().defaultTo('active');
    t.integer('agents').notNullable().defaultTo(5);
    t.integer('numbers').notNullable().defaultTo(1);
    t.integer('instagram_units').notNullable().defaultTo(0);
    t.integer('campaign_units').notNullable().defaultTo(0);
    t.smallint('months').notNullable().defaultTo(1);
    t.decimal('total', 10, 2).notNullable().defaultTo(0);
    t.boolean('autorenewal').notNullable().defaultTo(true);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX subscriptions_workspace_idx ON subscriptions (workspace_id, created_at DESC)');
  await knex.raw(
    "ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_license_check CHECK (license IN ('basic', 'trial', 'business', 'enterprise', 'pro'))",
  );
  await knex.raw(
    "ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_status_check CHECK (status IN ('active', 'expired', 'canceled'))",
  );
  await knex.raw('ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_months_check CHECK (months IN (1, 12))');

  await knex.schema.createTable('labels', (t) => {
    t.increments('id');
    t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('name', 60).notNullable();
    t.string('color', 9).notNullable();
    t.string('text_color', 9).notNullable();
    t.integer('sort').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX labels_workspace_sort_idx ON labels (workspace_id, sort, id)');
  await knex.raw('CREATE UNIQUE INDEX labels_workspace_name_unique ON labels (workspace_id, lower(name))');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['labels', 'subscriptions', 'account_tokens', 'workspace_members', 'operators', 'workspaces']) {
    await knex.schema.dropTableIfExists(table);
  }
}
