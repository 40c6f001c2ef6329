/**
 * The public body of a target just added and never called, without the instants the test cannot know
 * (created_at, updated_at, scheduled_time) and without waiting_reason (the single read adds it, the
 * lists do not). Tests spread it and override what their target was added with.
 */
export function freshTargetBody(
  owner: { organizationId: string; campaignId: string },
  id: string,
  baseUrl = 'http://localhost:3000',
) {
  return {
    id,
    target_url: `${baseUrl}/api/v1/targets/${id}`,
    organization_id: owner.organizationId,
    campaign_id: owner.campaignId,
    execution_minutes: null,
    input_data: {} as object,
    output_data: {},
    status: 'Pending',
    resolution: null,
    category: null,
    subcategory: null,
    call_log_ids: null,
    last_call_date: null,
    phone_number: null as string | null,
    fax_links: null,
    payor_api_data: null,
    external_id: null as string | null,
    retries: null,
    categorization: null,
    outcome: null,
    statistics: null,
    patient: null as Record<string, string | null> | null,
  };
}

/** What the single read adds for a +1555 number (no known zone): the organization's default zone. */
export const UNKNOWN_ZONE_RECIPIENT = {
  time_zones: ['America/New_York'],
  time_zone_source: 'organization_default',
  region: null,
};

/** A single read's body as the lists and the step routes show the target: without its read-time fields. */
export function listedTarget(body: Record<string, unknown>): Record<string, unknown> {
  const {
    waiting_reason: _waitingReason,
    time_zones: _zones,
    time_zone_source: _source,
    region: _region,
    ...target
  } = body;
  return target;
}
