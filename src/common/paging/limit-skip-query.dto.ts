import { ApiPropertyOptional } from '@nestjs/swagger';
import { PyInt, PyOptional } from '../validation/py-validators.js';

/**
 * `limit` + `skip` paging (DECISIONS: Blacklist read): the lists of phone numbers page this way, with
 * the total, rather than by `page`.
 */
export class LimitSkipQueryDto {
  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: 1000, description: 'Page size' })
  @PyOptional()
  @PyInt({ ge: 1, le: 1000 })
  limit: number = 100;

  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Entries to skip' })
  @PyOptional()
  @PyInt({ ge: 0 })
  skip: number = 0;
}
