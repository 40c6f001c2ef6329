/**
 * Personal data never reaches the logs: phone numbers, names, dates of birth, input and EHR data.
 * Nor do secrets: provider credentials and the headers providers authenticate with.
 * pino redacts these paths wherever a request, response or error object carries them.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  '*.phone_number',
  '*.fallback_phone_number',
  // Lists of numbers (a do-not-call or blacklist request, a removal's answer), and a number at the
  // top of a log line's own fields: nothing logs them today; a line that someday does stays clean.
  'phone_number',
  'phoneNumber',
  'phone_numbers',
  '*.phone_numbers',
  'phoneNumbers',
  '*.phoneNumbers',
  'not_listed',
  '*.not_listed',
  '*.first_name',
  '*.last_name',
  '*.date_of_birth',
  '*.input_data',
  '*.event_data',
  '*.pre_call_data',
  '*.patient',
  '*.to',
  '*.phoneNumber',
  '*.inputData',
  'credentials',
  '*.credentials',
  '*.*.credentials',
  'req.headers["x-vapi-secret"]',
];

/**
 * Request log lines keep the path only: query strings can carry personal data (a phone number or
 * an external id as a filter). pino-http hands this its serialized request.
 */
export function withoutQueryString<T extends { url?: string; query?: unknown }>(req: T): T {
  const { query: _query, ...rest } = req;
  const at = rest.url?.indexOf('?') ?? -1;
  return { ...rest, url: at >= 0 ? `${rest.url!.slice(0, at)}?[redacted]` : rest.url } as T;
}
