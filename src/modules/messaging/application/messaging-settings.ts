/** Where providers post texts' status reports and inbound texts; how many texts a worker sends at once. */
export class MessagingSettings {
  constructor(
    readonly publicBaseUrl: string,
    readonly concurrency: number,
  ) {}

  /** `POST /api/v1/telephony/{connection_id}/messages` of the connection (null: the simulator). */
  statusCallbackUrl(connection: { id: string } | null): string | null {
    return connection ? `${this.publicBaseUrl}/api/v1/telephony/${connection.id}/messages` : null;
  }
}
