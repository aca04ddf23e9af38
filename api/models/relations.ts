import { Model, type ModelClass, type RelationMapping } from 'objection';

type Related = ModelClass<Model>;

/**
 * relationMappings entries by their kind, with qualified columns (`table.column`):
 * `belongsToOne(Operator, 'calls.operator_id', 'operators.id')` — the row holds the foreign key;
 * `hasMany(Message, 'calls.id', 'messages.call_id')` — the related rows hold it;
 * `manyToMany(Label, 'calls.id', ['call_labels.call_id', 'call_labels.label_id'], 'labels.id')` — through a link table.
 */
export const belongsToOne = (modelClass: Related, from: string, to: string): RelationMapping<Model> => ({
  relation: Model.BelongsToOneRelation,
  modelClass,
  join: { from, to },
});

export const hasMany = (modelClass: Related, from: string, to: string): RelationMapping<Model> => ({
  relation: Model.HasManyRelation,
  modelClass,
  join: { from, to },
});

export const manyToMany = (modelClass: Related, from: string, through: [from: string, to: string], to: string): RelationMapping<Model> => ({
  relation: Model.ManyToManyRelation,
  modelClass,
  join: { from, through: { from: through[0], to: through[1] }, to },
});
