export interface Blacklist {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The `level` of an entry that holds for every campaign of the organization, whether or not the
 * campaign names its blacklist (compared without regard to case). Any other level, or none, holds
 * for the campaigns that name the blacklist in their `blacklist_ids`.
 */
export const ORGANIZATION_LEVEL = 'organization';

/** Whether an entry of this level holds for every campaign of the organization. */
export const holdsForOrganization = (level: string): boolean =>
  level.toLowerCase() === ORGANIZATION_LEVEL;

/** An entry of the spec's blacklist phone-number list; every field is a string on the wire. */
export interface BlacklistEntry {
  phone_number: string;
  reason: string;
  /** `organization`: every campaign of the organization; anything else: the campaigns naming it. */
  level: string;
  name: string;
  comment: string;
}
