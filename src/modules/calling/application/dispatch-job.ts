/** The dispatch queue: "look at this target now". The targets table is the truth, the job a reminder. */
export const DISPATCH_QUEUE = 'calling.dispatch';

export interface DispatchJob {
  targetId: string;
  campaignId: string;
  /** The scheduled_time this job is for (ISO); absent on jobs from older versions. */
  scheduledFor?: string;
}
