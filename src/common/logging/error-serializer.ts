import { stdSerializers } from 'pino';

/** Properties a database error carries that hold request data: the SQL and its bound values. */
const DATA_PROPERTIES = ['parameters', 'query', 'parameter', 'detail', 'where'];

/**
 * pino's error serializer copies every own property of an error. A TypeORM/pg error carries the
 * statement and its parameters (whole target payloads: phone numbers, names, input data), and pg's
 * `detail` can quote a row's values. Keep what helps an operator (message, code, constraint, table,
 * stack) and drop the data.
 */
export function serializeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const serialized = stdSerializers.err(err) as Record<string, unknown>;
  for (const key of DATA_PROPERTIES) delete serialized[key];
  const driverError = serialized.driverError as Record<string, unknown> | undefined;
  if (driverError && typeof driverError === 'object') {
    serialized.driverError = {
      code: driverError.code,
      constraint: driverError.constraint,
      table: driverError.table,
      message: driverError.message,
    };
  }
  return serialized;
}
