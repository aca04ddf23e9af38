import type { AppDeps } from '../deps';
import { resourceRouter } from '../crud/resourceRouter';
import { QuickPhrase } from '../models/QuickPhrase';
import { QuickPhraseSchema, QuickPhraseUpdateSchema } from './schema';

export function presentQuickPhrase(row: QuickPhrase) {
  return {
    id: row.id,
    phrase: row.phrase,
    tag: row.tag,
    privacy: row.privacy,
    hotkey: row.hotkey,
    operatorId: row.operatorId,
    sort: row.sort,
    createdAt: row.createdAt,
  };
}

/**
 * Quick phrases ("Frases Rápidas") at /api/inbox/quick-phrases, open to every level (SPEC §6). A private
 * phrase exists only for its owner: for anyone else every read and write answers 404.
 */
export function quickPhrasesRouter(deps: AppDeps) {
  return resourceRouter(deps, {
    path: '/inbox/quick-phrases',
    resource: 'quick-phrases',
    model: QuickPhrase,
    createSchema: QuickPhraseSchema,
    updateSchema: QuickPhraseUpdateSchema,
    readAction: 'quickPhrases.manage',
    writeAction: 'quickPhrases.manage',
    list: {
      sortable: ['tag', 'phrase', 'privacy', 'sort', 'createdAt', 'id'],
      defaultSort: { field: 'sort', order: 'asc' },
      filterable: ['privacy'],
      searchColumns: ['tag', 'phrase'],
      maxLimit: 1000,
    },
    sortColumn: 'sort',
    restrict: (query, actor) => void query.modify('visibleTo', actor.operatorId),
    // The owner is whoever created the phrase; an edit by someone else never takes it over.
    toColumns: (input, actor, _trx, mode) => (mode === 'create' ? { ...input, operatorId: actor.operatorId } : { ...input }),
    present: presentQuickPhrase,
  });
}
