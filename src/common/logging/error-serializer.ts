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
  let serialized: Record<string, unknown>;
  if (err instanceof Error) serialized = stdSerializers.err(err) as Record<string, unknown>;
  // pino-http serializes the error first and hands us the result: a plain object with its
  // message and stack (String() of it was the "[object Object]" of a 500's log line).
  else if (isSerializedError(err)) serialized = { ...err };
  else return { message: String(err) };
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

function isSerializedError(err: unknown): err is Record<string, unknown> {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { message?: unknown }).message === 'string' &&
    typeof (err as { stack?: unknown }).stack === 'string'
  );
}
