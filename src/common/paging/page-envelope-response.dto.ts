import { ApiProperty } from '@nestjs/swagger';

/** The paging fields every list response carries beside its items (see `pageEnvelope`). */
export abstract class PageEnvelopeResponseDto {
  @ApiProperty({ type: 'integer', description: 'ceil(total / limit)' }) page_count: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'page + 1, or null on the last page',
  })
  next_page: number | null;
}
