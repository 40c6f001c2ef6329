/** The blacklists a campaign applies (adapter: BlacklistService). */
export abstract class NumberBlacklist {
  /** The numbers among `phoneNumbers` that any of the blacklists holds. */
  abstract findBlacklisted(blacklistIds: string[], phoneNumbers: string[]): Promise<Set<string>>;
}
