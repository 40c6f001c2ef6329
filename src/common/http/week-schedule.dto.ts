import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_TZ } from '../schedule/week-schedule.js';

/** The reference's TimeIntervalNoTz: local `HH:MM` times, `end` exclusive (`24:00` ends the day). */
export class TimeIntervalNoTz {
  @ApiProperty({ type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$|^24:00$', example: '09:00' })
  start: string;
  @ApiProperty({ type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$|^24:00$', example: '17:00' })
  end: string;
}

const DAY = {
  type: TimeIntervalNoTz,
  isArray: true,
  description: 'Open intervals of the day (none: closed)',
} as const;

/**
 * The reference's WeekSchedule, for the OpenAPI document (requests are validated in py-located.ts).
 * A calling window or operating hours: per weekday, the intervals in which calls may be placed.
 */
export class WeekSchedule {
  @ApiPropertyOptional(DAY) monday?: TimeIntervalNoTz[];
  @ApiPropertyOptional(DAY) tuesday?: TimeIntervalNoTz[];
  @ApiPropertyOptional(DAY) wednesday?: TimeIntervalNoTz[];
  @ApiPropertyOptional(DAY) thursday?: TimeIntervalNoTz[];
  @ApiPropertyOptional(DAY) friday?: TimeIntervalNoTz[];
  @ApiPropertyOptional(DAY) saturday?: TimeIntervalNoTz[];
  @ApiPropertyOptional(DAY) sunday?: TimeIntervalNoTz[];
  @ApiPropertyOptional({
    type: 'string',
    default: DEFAULT_TZ,
    example: DEFAULT_TZ,
    description: 'IANA time zone name',
  })
  tz?: string;
}
