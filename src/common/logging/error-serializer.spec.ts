import { stdSerializers } from 'pino';
// The error class alone, not TypeORM's index: the index loads all of TypeORM, most of this file's time.
import { QueryFailedError } from 'typeorm/error/QueryFailedError.js';
import { serializeError } from './error-serializer.js';

describe('serializeError', () => {
  it('keeps what an operator needs and drops the statement, its values and row details', () => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      constraint: 'targets_pkey',
      table: 'targets',
      detail: 'Key (id)=(x) already exists.',
      parameters: ['+15550101234'],
    });
    const err = new QueryFailedError(
      'INSERT INTO targets ... $1',
      ['[{"phone_number":"+15550101234","patient":{"first_name":"Quintessa"}}]'],
      driverError,
    );
    const out = serializeError(err);
    const text = JSON.stringify(out);
    expect(text).not.toContain('+15550101234');
    expect(text).not.toContain('Quintessa');
    expect(text).not.toContain('INSERT INTO');
    expect(out).toMatchObject({
      type: 'QueryFailedError',
      message: 'duplicate key value violates unique constraint',
      driverError: { code: '23505', constraint: 'targets_pkey', table: 'targets' },
    });
  });

  it('keeps message and stack of an error pino-http has serialized already, minus its data', () => {
    const err = Object.assign(new Error('boom'), { parameters: ['+15550101234'] });
    const once = { ...stdSerializers.err(err) } as Record<string, unknown>;
    const out = serializeError(once);
    expect(out).toMatchObject({
      type: 'Error',
      message: 'boom',
      stack: expect.stringContaining('boom'),
    });
    expect(JSON.stringify(out)).not.toContain('+15550101234');
  });

  it('serializes non-errors as a message', () => {
    expect(serializeError('boom')).toEqual({ message: 'boom' });
  });
});
