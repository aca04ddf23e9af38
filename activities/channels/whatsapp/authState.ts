import type { Knex } from 'knex';
import { BufferJSON, initAuthCreds, type AuthenticationCreds, type AuthenticationState, type SignalDataSet, type SignalDataTypeMap } from 'baileys';
import { waProto } from './waProto';
import type { StateCipher } from './stateCipher';
import type { QrLine } from '../../../api/channels/whatsapp/qr/sessionQueue';

const CREDS = 'creds';

export interface PostgresAuthState {
  state: AuthenticationState;
  /** Persists `state.creds` as it is now (call on every `creds.update`). */
  saveCreds(): Promise<void>;
  /** Forgets the whole session (logged out): the next start asks for a new QR. */
  clear(): Promise<void>;
}

function aad(line: QrLine, type: string, id: string): string {
  return `${line.workspaceId}:${line.channelId}:${type}:${id}`;
}

/**
 * Baileys' `AuthenticationState` kept in PostgreSQL (table `whatsapp_auth_state`), encrypted per row. Values
 * are serialised with Baileys' own `BufferJSON`, as its file store does, so every key type round-trips
 * exactly; `keys.set` with `null` deletes. Replaces `useMultiFileAuthState`: nothing of a session is ever
 * written to files.
 */
export async function usePostgresAuthState(knex: Knex, cipher: StateCipher, line: QrLine): Promise<PostgresAuthState> {
  const scope = { workspaceId: line.workspaceId, channelId: line.channelId };

  const readRows = async (type: string, ids: string[]): Promise<Map<string, unknown>> => {
    const rows: { keyId: string; value: Buffer }[] = await knex('whatsapp_auth_state').where({ ...scope, type }).whereIn('key_id', ids).select('key_id', 'value');
    return new Map(rows.map((r) => [r.keyId, JSON.parse(cipher.open(r.value, aad(line, type, r.keyId)), BufferJSON.reviver)]));
  };

  const write = async (db: Knex | Knex.Transaction, type: string, id: string, value: unknown): Promise<void> => {
    const sealed = cipher.seal(JSON.stringify(value, BufferJSON.replacer), aad(line, type, id));
    await db('whatsapp_auth_state')
      .insert({ ...scope, type, keyId: id, value: sealed })
      .onConflict(['workspace_id', 'channel_id', 'type', 'key_id'])
      .merge({ value: sealed, updatedAt: db.fn.now() });
  };

  const stored = (await readRows(CREDS, [''])).get('') as AuthenticationCreds | undefined;
  const creds = stored ?? initAuthCreds();

  const state: AuthenticationState = {
    creds,
    keys: {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const found = await readRows(type, ids);
        const out: { [id: string]: SignalDataTypeMap[T] } = {};
        for (const id of ids) {
          let value = found.get(id);
          if (value === undefined) continue;
          if (type === 'app-state-sync-key') value = waProto.Message.AppStateSyncKeyData.fromObject(value as object);
          out[id] = value as SignalDataTypeMap[T];
        }
        return out;
      },
      async set(data: SignalDataSet) {
        await knex.transaction(async (trx) => {
          for (const type of Object.keys(data) as (keyof SignalDataSet)[]) {
            const entries = data[type] ?? {};
            const gone = Object.keys(entries).filter((id) => !entries[id]);
            if (gone.length) await trx('whatsapp_auth_state').where({ ...scope, type }).whereIn('key_id', gone).delete();
            for (const [id, value] of Object.entries(entries)) if (value) await write(trx, type, id, value);
          }
        });
      },
      async clear() {
        await knex('whatsapp_auth_state').where(scope).whereNot({ type: CREDS }).delete();
      },
    },
  };

  return {
    state,
    saveCreds: () => write(knex, CREDS, '', state.creds),
    async clear() {
      await knex('whatsapp_auth_state').where(scope).delete();
    },
  };
}
