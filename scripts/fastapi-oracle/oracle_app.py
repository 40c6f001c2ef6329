"""
The FastAPI oracle: the service's endpoints with the reference document's parameter names, types,
defaults and bounds (../shared/reference/prosper-voice-openapi-1.0.0.json), plus the rules of
DECISIONS.md as pydantic validators. It only validates: every handler answers a stub, because the golden
files record FastAPI's answers to invalid requests (and the status of a few valid ones).

Model class names are the reference's schema names where it has one (TargetInput, PatientInput,
TargetInputPhoneNumber, WeekSchedule, TimeIntervalNoTz): pydantic puts them in `model_type` messages and
in union tags of `loc`, so the service must use the same ones.
"""

import re
from datetime import datetime, timezone
from enum import Enum
from typing import Any, Dict, List, Optional, Union
from uuid import UUID
from zoneinfo import ZoneInfo, available_timezones

from fastapi import Body, FastAPI, Path, Query
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from typing_extensions import Annotated

# ---------------------------------------------------------------- enums (reference + DECISIONS)


class CampaignTargetStatus(str, Enum):
    Pending = "Pending"
    Scheduled = "Scheduled"
    InProgress = "In Progress"
    PostProcessing = "Post-processing"
    Finished = "Finished"
    ToReview = "To review"
    Failed = "Failed"
    Waiting = "Waiting"
    SmsScheduled = "SMS Scheduled"


class EHREventType(str, Enum):
    appointment_created = "appointment_created"
    appointment_cancelled = "appointment_cancelled"
    patient_registered = "patient_registered"


class CampaignType(str, Enum):
    payor = "payor"
    patient = "patient"
    provider = "provider"
    patient_incoming = "patient_incoming"
    patient_incoming_scheduling = "patient_incoming_scheduling"
    patient_outgoing_scheduling = "patient_outgoing_scheduling"
    patient_billing = "patient_billing"


class StepType(str, Enum):
    webhook = "webhook"
    ehr_event = "ehr_event"


class StepOnReceive(str, Enum):
    merge = "merge"
    merge_and_schedule = "merge_and_schedule"


class DeliveryStatus(str, Enum):
    pending = "pending"
    sending = "sending"
    delivered = "delivered"
    failed = "failed"


# ---------------------------------------------------------------- DECISIONS rules, worded as the service words them

PHONE_NUMBER_RULE = (
    "phone number must be + followed by 7 to 15 digits (spaces, dashes, dots and parentheses are ignored)"
)
HH_MM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$|^24:00$")
FRIENDLY_ID = re.compile(r"^[A-Za-z0-9_.-]+$")
TIME_ZONES = available_timezones()


def check_phone(value: str) -> str:
    compact = re.sub(r"[\s\-.()]", "", value)
    if not re.fullmatch(r"\+\d{7,15}", compact):
        raise ValueError(PHONE_NUMBER_RULE)
    return value


def as_utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


# ---------------------------------------------------------------- schedules (reference WeekSchedule)


class TimeIntervalNoTz(BaseModel):
    start: str
    end: str

    @field_validator("start", "end")
    @classmethod
    def hh_mm(cls, v: str) -> str:
        if not HH_MM.match(v):
            raise ValueError("time must be HH:MM, 00:00 to 24:00")
        return v

    @model_validator(mode="after")
    def ends_after_start(self):
        if self.start >= self.end:
            raise ValueError("an interval must end after it starts")
        return self


class WeekSchedule(BaseModel):
    # DECISIONS keeps a schedule to its weekdays and tz: a misspelt day must not silently mean "never".
    model_config = ConfigDict(extra="forbid")
    monday: List[TimeIntervalNoTz] = []
    tuesday: List[TimeIntervalNoTz] = []
    wednesday: List[TimeIntervalNoTz] = []
    thursday: List[TimeIntervalNoTz] = []
    friday: List[TimeIntervalNoTz] = []
    saturday: List[TimeIntervalNoTz] = []
    sunday: List[TimeIntervalNoTz] = []
    tz: str = "US/Eastern"

    @field_validator("tz")
    @classmethod
    def known_tz(cls, v: str) -> str:
        if v not in TIME_ZONES:
            raise ValueError("tz must be an IANA time zone name")
        return v


# ---------------------------------------------------------------- targets


class TargetInputPhoneNumber(BaseModel):
    value: str
    operating_hours: Optional[WeekSchedule] = None


PhoneInput = Union[str, TargetInputPhoneNumber]


class PatientInput(BaseModel):
    first_name: Optional[str] = None
    last_name: Optional[str] = None
    date_of_birth: Optional[str] = None
    phone_number: Optional[str] = None
    external_id: Optional[str] = None
    extra_data: Optional[Dict[str, Any]] = None


class TargetInput(BaseModel):
    # Not Optional: a null id is refused (uuid_type), an absent one is generated.
    id: UUID = None  # type: ignore[assignment]
    external_id: Optional[str] = None
    phone_number: PhoneInput
    fallback_phone_number: Optional[PhoneInput] = None
    input_data: Dict[str, Any] = {}
    patient: Optional[PatientInput] = None
    pre_call_data: Optional[Dict[str, Any]] = None

    @field_validator("phone_number", "fallback_phone_number")
    @classmethod
    def e164(cls, v):
        if v is None:
            return v
        check_phone(v if isinstance(v, str) else v.value)
        return v


class AddTargetsRequest(BaseModel):
    targets: Annotated[List[TargetInput], Field(min_length=1, max_length=10000)]
    launch: bool = False
    allow_duplicates: bool = True


class DeleteTargetsRequest(BaseModel):
    target_ids: Annotated[List[str], Field(max_length=10000)]


class UpdateTargetInputDataRequest(BaseModel):
    input_data: Dict[str, Any]
    only_if_not_started: bool = True


class LaunchTargetsRequest(BaseModel):
    target_ids: Optional[Annotated[List[str], Field(min_length=1, max_length=5000)]] = None
    count: Optional[Annotated[int, Field(ge=1, le=10000)]] = None
    prioritize_oldest: bool = False

    @model_validator(mode="after")
    def exactly_one(self):
        if (self.target_ids is None) == (self.count is None):
            raise ValueError("Exactly one of target_ids or count must be provided")
        return self


# ---------------------------------------------------------------- steps


class StepUpdate(BaseModel):
    target_id: Optional[str] = None
    external_id: Optional[str] = None
    input_data: Dict[str, Any]

    @model_validator(mode="after")
    def names_target(self):
        if self.target_id is None and self.external_id is None:
            raise ValueError("target_id or external_id is required")
        return self


class BatchStep(BaseModel):
    updates: Annotated[List[StepUpdate], Field(min_length=1, max_length=5000)]


class EhrEvent(BaseModel):
    event_type: Optional[EHREventType] = None
    event_data: Dict[str, Any] = {}
    target_id: Optional[str] = None
    external_id: Optional[str] = None

    @model_validator(mode="after")
    def names_target(self):
        if self.target_id is None and self.external_id is None:
            raise ValueError("target_id or external_id is required")
        return self


# ---------------------------------------------------------------- webhooks


class RerunFailedWebhooksBody(BaseModel):
    from_date: datetime
    to_date: datetime

    @field_validator("to_date")
    @classmethod
    def not_before_from(cls, v: datetime, info):
        start = info.data.get("from_date")
        if start is not None and as_utc(start) > as_utc(v):
            raise ValueError("from_date must be before or equal to to_date")
        return v


# ---------------------------------------------------------------- campaigns (management API, DECISIONS)


class CampaignStep(BaseModel):
    friendly_id: Annotated[str, Field(min_length=1, max_length=100)]
    type: StepType
    on_receive: StepOnReceive = StepOnReceive.merge

    @field_validator("friendly_id")
    @classmethod
    def url_safe(cls, v: str) -> str:
        if not FRIENDLY_ID.match(v):
            raise ValueError("friendly_id may only contain letters, digits, _ . -")
        return v


def unique_friendly_ids(steps: List[CampaignStep]) -> List[CampaignStep]:
    seen = set()
    for step in steps:
        if step.friendly_id in seen:
            raise ValueError(f'duplicate step friendly_id "{step.friendly_id}"')
        seen.add(step.friendly_id)
    return steps


class CampaignFields(BaseModel):
    caller_id: Optional[Annotated[str, Field(max_length=32)]] = None
    max_attempts: Annotated[int, Field(ge=1, le=20)] = 3
    retry_delay_minutes: Annotated[int, Field(ge=0, le=10080)] = 60
    max_concurrent_calls: Annotated[int, Field(ge=1, le=1000)] = 10
    calling_window: Optional[WeekSchedule] = None
    steps: Annotated[List[CampaignStep], Field(max_length=50)] = []
    entry_step: Optional[str] = None
    blacklist_ids: Annotated[List[UUID], Field(max_length=100)] = []
    webhook_url: Optional[Annotated[str, Field(max_length=2048)]] = None

    _unique_steps = field_validator("steps")(unique_friendly_ids)

    @field_validator("webhook_url")
    @classmethod
    def http_url(cls, v: Optional[str]) -> Optional[str]:
        if v is None:
            return v
        if not re.match(r"^https?://[^/?#\s]+", v, re.IGNORECASE):
            raise ValueError("webhook_url must be an absolute http(s) URL")
        return v


class CampaignIdentity(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=200)]
    type: CampaignType


class OptionalCampaignIdentity(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=200)] = None  # type: ignore[assignment]
    type: CampaignType = None  # type: ignore[assignment]


# Listed last, the identity's fields come first (pydantic orders fields by reversed MRO).
class CreateCampaign(CampaignFields, CampaignIdentity):
    pass


class UpdateCampaign(CampaignFields, OptionalCampaignIdentity):
    pass


# ---------------------------------------------------------------- blacklists (management API, DECISIONS)


class CreateBlacklist(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=200)]
    description: Optional[Annotated[str, Field(max_length=2000)]] = None


class BlacklistEntry(BaseModel):
    phone_number: str
    reason: Optional[Annotated[str, Field(max_length=500)]] = ""
    level: Optional[Annotated[str, Field(max_length=100)]] = ""
    name: Optional[Annotated[str, Field(max_length=200)]] = ""
    comment: Optional[Annotated[str, Field(max_length=2000)]] = ""


class AddBlacklistNumbers(BaseModel):
    phone_numbers: Annotated[List[BlacklistEntry], Field(min_length=1, max_length=10000)]


class RemoveBlacklistNumbers(BaseModel):
    phone_numbers: Annotated[List[str], Field(min_length=1, max_length=10000)]


# ---------------------------------------------------------------- routes

app = FastAPI(title="Campaign Calling Service oracle")
STUB = {"oracle": "accepted"}

Page = Annotated[int, Query(ge=0)]
OptionalDate = Annotated[Optional[datetime], Query()]


@app.get("/api/v1/health")
def health_check():
    return {"status": "ok"}


@app.post("/api/v1/campaigns", status_code=201)
def create_campaign(body: CreateCampaign):
    return STUB


@app.get("/api/v1/campaigns")
def list_campaigns(page: Page = 0, limit: Annotated[int, Query(ge=1, le=100)] = 50):
    return STUB


@app.get("/api/v1/campaigns/{campaign_id}")
def get_campaign(campaign_id: str):
    return STUB


@app.patch("/api/v1/campaigns/{campaign_id}")
def update_campaign(campaign_id: str, body: UpdateCampaign):
    return STUB


@app.post("/api/v1/campaigns/{campaign_id}/targets")
def add_targets(campaign_id: str, body: AddTargetsRequest):
    return STUB


@app.delete("/api/v1/campaigns/{campaign_id}/targets")
def delete_targets(campaign_id: str, body: DeleteTargetsRequest):
    return STUB


def list_targets(
    campaign_id: str,
    page: Page = 0,
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
    status: Optional[CampaignTargetStatus] = None,
    from_date: OptionalDate = None,
    to_date: OptionalDate = None,
    from_last_call_date: OptionalDate = None,
    to_last_call_date: OptionalDate = None,
):
    return STUB


app.get("/api/v1/campaigns/{campaign_id}/targets")(list_targets)
app.get("/api/v1/campaigns/{campaign_id}/patient/targets")(list_targets)


@app.post("/api/v1/campaigns/{campaign_id}/calls")
def campaign_calls(campaign_id: str, body: LaunchTargetsRequest):
    return STUB


@app.post("/api/v1/campaigns/{campaign_id}/targets/step/{friendly_id}")
def receive_webhook_step_batch(campaign_id: str, friendly_id: str, body: BatchStep):
    return STUB


@app.post("/api/v1/campaigns/{campaign_id}/targets/{target_id}/step/{friendly_id}")
def receive_webhook_step(
    target_id: str, campaign_id: str, friendly_id: str, target_data: Dict[str, Any] = Body({})
):
    return STUB


@app.post("/api/v1/campaigns/{campaign_id}/ehr-event/{friendly_id}")
def receive_ehr_event_step(campaign_id: str, friendly_id: str, body: EhrEvent):
    return STUB


@app.post("/api/v1/campaigns/{campaign_id}/webhooks/rerun-failed", status_code=202)
def rerun_failed_webhooks(campaign_id: str, body: RerunFailedWebhooksBody):
    return STUB


@app.get("/api/v1/campaigns/{campaign_id}/webhooks/deliveries")
def list_webhook_deliveries(
    campaign_id: str,
    status: Optional[DeliveryStatus] = None,
    page: Page = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
):
    return STUB


@app.get("/api/v1/targets/{target_id}")
def retrieve_target(target_id: str):
    return STUB


@app.patch("/api/v1/targets/{target_id}")
def update_target_input_data(target_id: str, body: UpdateTargetInputDataRequest):
    return STUB


@app.get("/api/v1/call-logs")
def list_call_logs(
    page: Page = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
    from_date: OptionalDate = None,
    to_date: OptionalDate = None,
    campaign_id: Optional[str] = None,
):
    return STUB


@app.get("/api/v1/call-logs/{call_log_id}")
def get_call_log(
    call_log_id: Annotated[int, Path(ge=0, le=9223372036854775807)],
    include_recordings: bool = False,
):
    return STUB


@app.get("/api/v1/live-calls")
def get_live_call(
    key: Optional[str] = None,
    value: Optional[str] = None,
    call_log_id: Optional[int] = None,
    user_phone_number: Optional[str] = None,
):
    return STUB


@app.get("/api/v1/campaigns/{campaign_id}/variables")
def get_required_variables(campaign_id: str):
    return STUB


@app.post("/api/v1/blacklists", status_code=201)
def create_blacklist(body: CreateBlacklist):
    return STUB


@app.get("/api/v1/blacklists")
def list_blacklists(page: Page = 0, limit: Annotated[int, Query(ge=1, le=100)] = 50):
    return STUB


@app.post("/api/v1/blacklists/{blacklist_id}/phone-numbers")
def add_blacklist_phone_numbers(blacklist_id: str, body: AddBlacklistNumbers):
    return STUB


@app.delete("/api/v1/blacklists/{blacklist_id}/phone-numbers")
def remove_blacklist_phone_numbers(blacklist_id: str, body: RemoveBlacklistNumbers):
    return STUB


@app.get("/api/v1/blacklists/{blacklist_id}/phone-numbers")
def list_blacklist_phone_numbers(
    blacklist_id: str,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    skip: Annotated[int, Query(ge=0)] = 0,
):
    return STUB
