import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';
import { bySort } from './modifiers';

export const QUICK_PHRASE_PRIVACY = ['public', 'private'] as const;
export type QuickPhrasePrivacy = (typeof QUICK_PHRASE_PRIVACY)[number];

/** A canned reply: public ones serve every agent, private ones only their owner (SPEC §6). */
export class QuickPhrase extends BaseModel {
  static override tableName = 'quick_phrases';
  id!: number;
  workspaceId!: number;
  /** Owner; null once they left the workspace (a private phrase is then visible to nobody). */
  operatorId!: number | null;
  phrase!: string;
  /** Starts with one slash, e.g. "/bomdia". */
  tag!: string;
  privacy!: QuickPhrasePrivacy;
  hotkey!: string | null;
  sort!: number;
  createdAt!: Date;
  updatedAt!: Date;

  static override modifiers: Modifiers = {
    visibleTo(qb, operatorId: number) {
      qb.where((w) => {
        w.where('quick_phrases.privacy', 'public').orWhere('quick_phrases.operator_id', operatorId);
      });
    },
    sorted: bySort('quick_phrases'),
  };
}
