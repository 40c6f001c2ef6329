/**
 * Which campaigns an organization has, as the key routes need to know: a key may be limited only to
 * campaigns of its own organization. The campaign module (a higher layer, see docs/architecture.md)
 * provides it; an app built without campaigns has none, and the key routes look it up optionally.
 */
export abstract class OrganizationCampaigns {
  /** Those of `campaignIds` that are campaigns of the organization. */
  abstract existing(organizationId: string, campaignIds: string[]): Promise<Set<string>>;
}
