import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import type { Blacklist, BlacklistEntry } from '../domain/blacklist.js';

/** A `blacklists` row as `pg` returns it: the domain's fields in snake_case. */
export type BlacklistRow = RowOf<Blacklist>;

/** Every column of `blacklists`, for `SELECT` and `RETURNING`. */
export const BLACKLIST_COLUMNS = [
  'id',
  'organization_id',
  'name',
  'description',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof BlacklistRow)[];

export const blacklistFromRow = rowMapper<Blacklist>()(BLACKLIST_COLUMNS);

/**
 * A `blacklist_phone_numbers` row as read back: the entry's wire fields (the domain type keeps the
 * spec's snake_case names, so the row is the entry).
 */
export type BlacklistPhoneNumberRow = BlacklistEntry;

/** The columns of `blacklist_phone_numbers` an entry is read from. */
export const BLACKLIST_PHONE_NUMBER_COLUMNS = [
  'phone_number',
  'reason',
  'level',
  'name',
  'comment',
] as const satisfies readonly (keyof BlacklistPhoneNumberRow)[];
