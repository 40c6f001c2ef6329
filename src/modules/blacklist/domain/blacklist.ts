export interface Blacklist {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An entry of the spec's blacklist phone-number list; every field is a string on the wire. */
export interface BlacklistEntry {
  phone_number: string;
  reason: string;
  level: string;
  name: string;
  comment: string;
}
