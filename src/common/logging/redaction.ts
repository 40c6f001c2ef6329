/**
 * Personal data never reaches the logs: phone numbers, names, dates of birth, input and EHR data.
 * pino redacts these paths wherever a request, response or error object carries them.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  '*.phone_number',
  '*.fallback_phone_number',
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
];
