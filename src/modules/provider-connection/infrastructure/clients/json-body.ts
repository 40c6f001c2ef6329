import { InvalidInputError } from '../../../../common/errors/domain-errors.js';

/** An authenticated event body that is not JSON is the sender's mistake: 422, never a 500. */
export function parseJsonBody(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new InvalidInputError('Input should be a JSON object', [], raw);
  }
}
