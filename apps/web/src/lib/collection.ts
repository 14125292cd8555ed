import type { Collection, PageMeta } from '@sigaf/contract';

/** A collection's rows: the properties of each member. */
export const props = <P>(c: Collection<P>) => c.collections.map((r) => r.properties);

/** A page of rows with its total, as the screens' tables read it. */
export interface Page<T> {
  rows: T[];
  total: number;
  meta?: PageMeta;
}

export const page = <P>(c: Collection<P>): Page<P> => ({
  rows: props(c),
  total: c.meta?.total ?? c.numberOfElements,
  meta: c.meta,
});
