import { Model, snakeCaseMappers } from 'objection';

/** snake_case columns, camelCase properties (DESIGN.md §2). */
export class BaseModel extends Model {
  static override get columnNameMappers() {
    return snakeCaseMappers();
  }
}
