import { isStandardWebhooksSecret } from './standard-webhooks-secret.js';

describe('isStandardWebhooksSecret', () => {
  it('takes whsec_ followed by base64, or the base64 alone', () => {
    expect(isStandardWebhooksSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBe(true);
    expect(isStandardWebhooksSecret('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBe(true);
    expect(isStandardWebhooksSecret('whsec_dGVzdA==')).toBe(true);
  });

  it('refuses what standardwebhooks cannot sign with', () => {
    for (const bad of ['whsec_', 'whsec_not base64!', 'agent-secret', 'whsec_abc', '', 42, null]) {
      expect([bad, isStandardWebhooksSecret(bad)]).toEqual([bad, false]);
    }
  });
});
