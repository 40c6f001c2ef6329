import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';

/** A response field that is a string or null; `docs` add its description, example and the like. */
export const NullableString = (docs: ApiPropertyOptions = {}) =>
  ApiProperty({ type: 'string', nullable: true, ...docs });

/** A response field holding an ISO-8601 date-time (`nullable: true` when it may be null). */
export const DateTime = (docs: ApiPropertyOptions = {}) =>
  ApiProperty({ type: 'string', format: 'date-time', ...docs });
