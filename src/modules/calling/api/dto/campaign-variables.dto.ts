import { NullableString } from '../../../../common/http/response-properties.js';
import { ApiProperty } from '@nestjs/swagger';

export class CampaignVariableDto {
  @ApiProperty({ example: 'patient.first_name' }) name: string;
  @ApiProperty({ type: [String], example: ['provider_connection.twiml_template'] })
  used_in: string[];
  @ApiProperty({ description: 'Targets awaiting a call that lack a text, number or boolean here' })
  targets_missing: number;
  @ApiProperty({ type: [String], description: 'The first of them in creation order (at most 100)' })
  missing_target_ids: string[];
}

export class CampaignVariablesResponseDto {
  @ApiProperty() campaign_id: string;
  @NullableString({
    description: 'The connection whose templates were read; null when the simulator calls',
  })
  provider_connection_id: string | null;
  @ApiProperty({
    description: 'Targets awaiting a call (Pending, Waiting, Scheduled): those checked',
  })
  targets_checked: number;
  @ApiProperty({ type: [CampaignVariableDto] }) variables: CampaignVariableDto[];
}
