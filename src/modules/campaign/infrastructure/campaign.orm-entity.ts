import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { WeekSchedule } from '../../../common/schedule/week-schedule';
import type { CampaignStep, CampaignType } from '../domain/campaign';

@Entity('campaigns')
export class CampaignOrmEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid', { name: 'organization_id' }) organizationId: string;
  @Column('text') name: string;
  @Column('text') type: CampaignType;
  @Column('text', { name: 'caller_id', nullable: true }) callerId: string | null;
  @Column('integer', { name: 'max_attempts' }) maxAttempts: number;
  @Column('integer', { name: 'retry_delay_minutes' }) retryDelayMinutes: number;
  @Column('integer', { name: 'max_concurrent_calls' }) maxConcurrentCalls: number;
  @Column('jsonb', { name: 'calling_window', nullable: true }) callingWindow: WeekSchedule | null;
  @Column('jsonb') steps: CampaignStep[];
  @Column('text', { name: 'entry_step', nullable: true }) entryStep: string | null;
  @Column('uuid', { name: 'blacklist_ids', array: true }) blacklistIds: string[];
  @Column('text', { name: 'webhook_url', nullable: true }) webhookUrl: string | null;
  @Column('text', { name: 'webhook_secret' }) webhookSecret: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
