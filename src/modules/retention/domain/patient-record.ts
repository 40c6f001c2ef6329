/**
 * Everything an organization holds on one person (HIPAA right of access), in the words of the report
 * it is given as: each entry is a row of its kind as the API shows it.
 */
export interface PatientRecord {
  targets: PatientTarget[];
  totalTargets: number;
  callLogs: PatientCallLog[];
  messages: PatientMessage[];
  doNotCall: PatientDoNotCallEntry[];
  decisions: PatientDecision[];
}

export interface PatientTarget {
  id: string;
  campaignId: string;
  externalId: string | null;
  phoneNumber: string | null;
  fallbackPhoneNumber: string | null;
  patient: Record<string, unknown> | null;
  inputData: Record<string, unknown> | null;
  outputData: Record<string, unknown> | null;
  status: string;
  category: string | null;
  resolution: string | null;
  createdAt: Date;
  purgedAt: Date | null;
  purgedParts: string[];
}

export interface PatientCallLog {
  id: number;
  campaignId: string;
  targetId: string;
  toNumber: string;
  outcome: string | null;
  transcripts: unknown[];
  postCallData: Record<string, unknown> | null;
  recordingUrls: string[];
  startedAt: Date;
  endedAt: Date | null;
}

export interface PatientMessage {
  id: string;
  campaignId: string | null;
  targetId: string | null;
  direction: string;
  toNumber: string;
  fromNumber: string | null;
  body: string;
  status: string;
  createdAt: Date;
}

export interface PatientDoNotCallEntry {
  id: string;
  phoneNumber: string;
  reason: string;
  source: string;
  addedAt: Date;
  removedAt: Date | null;
}

export interface PatientDecision {
  id: string;
  campaignId: string;
  targetId: string;
  rule: string;
  action: string;
  reason: string;
  decidedAt: Date;
}
