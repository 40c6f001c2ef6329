/**
 * The entries of `values` that are set: a partial update leaves a field it was not given as it is,
 * and options given as `undefined` keep their defaults, as missing ones do.
 */
export const definedOnly = <T extends object>(values: T): Partial<T> =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
