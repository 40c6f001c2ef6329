/** Who is calling: the organization and API key the request authenticated as. */
export interface AuthContext {
  organizationId: string;
  apiKeyId: string;
}
