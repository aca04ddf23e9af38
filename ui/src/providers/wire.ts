/**
 * A type the api presents (api/<area>/presenters.ts) as the browser receives it: JSON turns every Date
 * into its ISO string. The UI reads the api's presenter types through it instead of keeping copies.
 */
export type Wire<T> = T extends Date
  ? string
  : T extends (infer Item)[]
    ? Wire<Item>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;
