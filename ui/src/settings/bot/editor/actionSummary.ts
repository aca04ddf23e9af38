import { texts } from '../../../i18n/ptBR';
import type { BotChoices, BotDoc } from '../botTypes';
import type { ActionDoc } from './draft';

const t = texts.bots;

const nameIn = (list: { id: number; name: string }[], id: number | undefined) => (id === undefined ? '' : (list.find((c) => c.id === id)?.name ?? `#${id}`));
const pathName = (doc: BotDoc, guid: string | null | undefined) => (guid ? (doc.paths.find((p) => p.guid === guid)?.name ?? '?') : '');

/** The one-line (or clamped) text a node shows for an action. */
export function actionSummary(action: ActionDoc, doc: BotDoc, choices: BotChoices): string {
  switch (action.type) {
    case 'message':
    case 'input':
    case 'resolve':
      return action.text ?? '';
    case 'menu':
      return [action.title, action.text].filter(Boolean).join('\n');
    case 'agent':
      return `${t.fields.assigneeTypes[action.assigneeType]}: ${nameIn(action.assigneeType === 'group' ? choices.groups : choices.agents, action.assignee)}`;
    case 'goto':
    case 'path':
      return `→ ${pathName(doc, action.goToPath)}`;
    case 'integration':
      return [action.name, action.script?.url].filter(Boolean).join(' · ');
    case 'tag':
      return nameIn(choices.tags, action.tag);
  }
}
