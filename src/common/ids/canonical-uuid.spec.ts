import { canonicalUuid } from './canonical-uuid.js';

describe('canonicalUuid', () => {
  const ID = '6f1c1f7e-2b1a-4c55-9a57-0d3b7f0a1e11';

  it('reads any case, with or without dashes, as the canonical form', () => {
    expect(canonicalUuid(ID)).toBe(ID);
    expect(canonicalUuid('6F1C1F7E-2B1A-4C55-9A57-0D3B7F0A1E11')).toBe(ID);
    expect(canonicalUuid('6f1c1f7e2b1a4c559a570d3b7f0a1e11')).toBe(ID);
  });

  it('is null for anything that is not a UUID', () => {
    expect(canonicalUuid('not-a-uuid')).toBeNull();
    expect(canonicalUuid('6f1c1f7e-2b1a-4c55-9a57-0d3b7f0a1e1')).toBeNull();
    expect(canonicalUuid('6f1c1f7e--2b1a-4c55-9a57-0d3b7f0a1e11')).toBeNull();
    expect(canonicalUuid('')).toBeNull();
  });
});
