/** Any ISO 8601 timestamp as the API writes it, and any UUID: for whole-body assertions. */
export const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
export const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);

/**
 * The whole body of an import report that succeeded with nothing in it, the fields a test names
 * replacing these (`GET /api/v1/imports/{id}` and the import's own answer, docs/targets.md).
 */
export function importReport(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    id: UUID,
    campaign_id: UUID,
    status: 'succeeded',
    dry_run: false,
    launch: false,
    allow_duplicates: true,
    on_error: 'reject',
    columns: null,
    preview: null,
    rows: 0,
    invalid_rows: 0,
    processed_rows: 0,
    created: 0,
    ignored_rows: 0,
    errors: [],
    ignored: [],
    created_at: ISO,
    updated_at: ISO,
    finished_at: ISO,
    failure: null,
    ...overrides,
  };
}
