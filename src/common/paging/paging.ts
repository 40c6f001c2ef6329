/** 0-based `page` + `limit`; `page_count = ceil(total / limit)`; `next_page` null on the last page. */
export interface PageRequest {
  page: number;
  limit: number;
}

export interface PageEnvelope {
  page_count: number;
  next_page: number | null;
}

export function pageEnvelope({ page, limit }: PageRequest, total: number): PageEnvelope {
  const pageCount = Math.ceil(total / limit);
  return { page_count: pageCount, next_page: page + 1 < pageCount ? page + 1 : null };
}

/**
 * A place in a (created_at, id) order: just after the row with this creation time and id. Microseconds
 * are the column's full precision (a Date has only milliseconds), and a number holds them exactly
 * (microseconds since the epoch stay below 2^53 until the year 2255).
 */
export interface CreationPosition {
  createdMicros: number;
  id: string;
}

/** Capped at 2^53 - 1: a page that far out is empty either way, and SQL gets an integer it can read. */
export function offsetOf({ page, limit }: PageRequest): number {
  return Math.min(page * limit, Number.MAX_SAFE_INTEGER);
}
