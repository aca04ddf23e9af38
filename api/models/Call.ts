import type { Modifiers, RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';
import { belongsToOne, hasMany, manyToMany } from './relations';
import { finishedFlag } from './modifiers';
import { CustomerPlatform } from './CustomerPlatform';
import { Label } from './Label';
import { Message } from './Message';
import { Operator } from './Operator';

/**
 * A service session of a conversation. protocol is assigned by the database when the transaction that
 * opened the call commits (per-workspace, gapless; never set it; docs/data-model.md): null until then
 * within that transaction. Resolving sets isFinished and finishedAt together (calls_finished_check).
 */
export class Call extends BaseModel {
  static override tableName = 'calls';
  id!: number;
  workspaceId!: number;
  customerPlatformId!: number;
  protocol!: number | null;
  operatorId!: number | null;
  groupId!: number | null;
  createdAt!: Date;
  firstResponseAt!: Date | null;
  /** Oldest customer message still unanswered; null when the last word was ours. */
  waitingSince!: Date | null;
  responseCount!: number;
  responseTimeSumMs!: number;
  finishedAt!: Date | null;
  isFinished!: boolean;
  conversation?: CustomerPlatform;
  operator?: Operator | null;
  labels?: Label[];
  messages?: Message[];

  static override relationMappings = (): RelationMappings => ({
    conversation: belongsToOne(CustomerPlatform, 'calls.customer_platform_id', 'customer_platforms.id'),
    operator: belongsToOne(Operator, 'calls.operator_id', 'operators.id'),
    labels: manyToMany(Label, 'calls.id', ['call_labels.call_id', 'call_labels.label_id'], 'labels.id'),
    messages: hasMany(Message, 'calls.id', 'messages.call_id'),
  });

  static override modifiers: Modifiers = {
    ...finishedFlag('calls'),
    /** Call history of a conversation, newest first (served by calls_customer_platform_id_unique). */
    history(qb) {
      qb.orderBy('calls.id', 'desc');
    },
  };
}
