"""
The catalogue of requests sent to the FastAPI oracle and, by test/e2e/golden.e2e-spec.ts, to the service.

A case is a request: method, path (with {campaign_id}-style placeholders the test fills with ids of its own
organization), an optional raw query string, and an optional raw body with its content type. Most are
invalid; a few are valid forms FastAPI accepts that a naive implementation would refuse (`limit=1.0`, a unix
timestamp as a date): for those only the status is compared, since the oracle's handlers answer a stub.

Where the service differs from FastAPI on purpose, `DIFFERENCES` names the case, the DECISIONS rule and the
service's documented answer; the test checks that answer instead.
"""

import json

JSON = "application/json"


def j(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def case(name, method, path, query=None, body=None, content_type=JSON, compare="body"):
    out = {"name": name, "method": method, "path": path}
    if query is not None:
        out["query"] = query
    if body is not None:
        out["body"] = body
        out["content_type"] = content_type
    out["compare"] = compare
    return out


def accepted(name, method, path, query):
    """A valid request FastAPI accepts: only the status is compared (the oracle answers a stub)."""
    return case(name, method, path, query=query, compare="status")


# ---------------------------------------------------------------- shapes every body operation gets

MALFORMED_JSON = {
    "truncated object": '{"name": ',
    "single quotes": "{'name': 'x'}",
    "trailing comma": '{"name": "x",}',
    "missing colon": '{"name" "x"}',
    "missing comma": '{"a": 1 "b": 2}',
    "unterminated string": '{"name": "x',
    "extra data": '{"a": 1} {"b": 2}',
    "bare word": "nope",
    "unterminated array": "[1, 2",
    "bad escape": '{"a": "\\q"}',
    "newline in string": '{"a": "x\ny"}',
    "leading whitespace then garbage": '\n\n  {"a": }',
}


def body_shapes(prefix, method, path):
    cases = [
        case(f"{prefix}: no body", method, path, body=None),
        case(f"{prefix}: empty body", method, path, body=""),
        case(f"{prefix}: null body", method, path, body="null"),
        case(f"{prefix}: array body", method, path, body="[]"),
        case(f"{prefix}: number body", method, path, body="5"),
        case(f"{prefix}: string body", method, path, body='"text"'),
        case(f"{prefix}: text/plain body", method, path, body="hello", content_type="text/plain"),
        case(f"{prefix}: empty object", method, path, body="{}"),
        case(f"{prefix}: only unknown keys", method, path, body=j({"constructor": "x", "__proto__": {"a": 1}})),
    ]
    for label, text in MALFORMED_JSON.items():
        cases.append(case(f"{prefix}: malformed JSON, {label}", method, path, body=text))
    return cases


# ---------------------------------------------------------------- shapes every paged list gets


def paging_shapes(prefix, path, page_name="page", limit_le=100):
    return [
        case(f"{prefix}: {page_name} not an integer", "GET", path, query=f"{page_name}=abc"),
        case(f"{prefix}: {page_name} negative", "GET", path, query=f"{page_name}=-1"),
        case(f"{prefix}: {page_name} fractional", "GET", path, query=f"{page_name}=1.5"),
        case(f"{prefix}: {page_name} empty", "GET", path, query=f"{page_name}="),
        case(f"{prefix}: limit zero", "GET", path, query="limit=0"),
        case(f"{prefix}: limit above maximum", "GET", path, query=f"limit={limit_le + 1}"),
        case(f"{prefix}: limit and page both wrong", "GET", path, query=f"limit=x&{page_name}=-3"),
        case(f"{prefix}: limit as a big integer", "GET", path, query="limit=99999999999999999999999"),
        case(f"{prefix}: repeated limit, last wrong", "GET", path, query="limit=5&limit=abc"),
        accepted(f"{prefix}: repeated limit, last valid", "GET", path, query="limit=abc&limit=5"),
        accepted(f"{prefix}: limit=1.0 is an integer", "GET", path, query="limit=1.0"),
        accepted(f"{prefix}: limit with spaces", "GET", path, query="limit=%201%20"),
    ]


DATE_FORMS_INVALID = {
    "hour 25": "2024-01-01T25:00",
    "month 13": "2024-13-01",
    "day 32": "2024-01-32",
    "february 30": "2024-02-30",
    "words": "yesterday",
    "too short": "2024-1-1",
    "bad separator": "2024/01/01",
    "minute 60": "2024-01-01T10:60",
    "trailing garbage": "2024-01-01T10:00:00Zabc",
    "empty": "",
    "float timestamp with letters": "17000e",
}
DATE_FORMS_VALID = {
    "date": "2024-01-01",
    "date-time with Z": "2024-01-01T10:00:00Z",
    "date-time with offset": "2024-01-01T10:00:00%2B02:00",
    "date-time without seconds": "2024-01-01T10:00",
    "space separator": "2024-01-01%2010:00:00",
    "unix timestamp": "1700000000",
    "unix timestamp in milliseconds": "1700000000000",
    "fractional seconds": "2024-01-01T10:00:00.123456Z",
}


def date_shapes(prefix, path, names):
    cases = []
    for name in names:
        for label, value in DATE_FORMS_INVALID.items():
            cases.append(case(f"{prefix}: {name} {label}", "GET", path, query=f"{name}={value}"))
    first = names[0]
    for label, value in DATE_FORMS_VALID.items():
        cases.append(accepted(f"{prefix}: {first} {label}", "GET", path, query=f"{first}={value}"))
    return cases


# ---------------------------------------------------------------- per operation

CAMPAIGNS = "/api/v1/campaigns"
CAMPAIGN = "/api/v1/campaigns/{campaign_id}"
TARGETS = "/api/v1/campaigns/{campaign_id}/targets"
PATIENT_TARGETS = "/api/v1/campaigns/{campaign_id}/patient/targets"
CALLS = "/api/v1/campaigns/{campaign_id}/calls"
BATCH_STEP = "/api/v1/campaigns/{campaign_id}/targets/step/{friendly_id}"
ONE_STEP = "/api/v1/campaigns/{campaign_id}/targets/{target_id}/step/{friendly_id}"
EHR = "/api/v1/campaigns/{campaign_id}/ehr-event/{friendly_id}"
RERUN = "/api/v1/campaigns/{campaign_id}/webhooks/rerun-failed"
DELIVERIES = "/api/v1/campaigns/{campaign_id}/webhooks/deliveries"
TARGET = "/api/v1/targets/{target_id}"
CALL_LOGS = "/api/v1/call-logs"
CALL_LOG = "/api/v1/call-logs/{call_log_id}"
BLACKLISTS = "/api/v1/blacklists"
BLACKLIST_NUMBERS = "/api/v1/blacklists/{blacklist_id}/phone-numbers"

PHONE = "+15550100000"
SCHEDULE = {"monday": [{"start": "09:00", "end": "17:00"}], "tz": "US/Eastern"}


def target(**fields):
    return {"phone_number": PHONE, **fields}


def add(name, body):
    return case(f"add targets: {name}", "POST", TARGETS, body=j(body))


def add_targets_cases():
    out = body_shapes("add targets", "POST", TARGETS)
    out += [
        add("targets missing", {"launch": True}),
        add("targets null", {"targets": None}),
        add("targets not a list", {"targets": {"phone_number": PHONE}}),
        add("targets a string", {"targets": "abc"}),
        add("targets empty", {"targets": []}),
        add("target not an object", {"targets": [5, "x", None, [], target()]}),
        add("phone number missing", {"targets": [{"external_id": "a"}]}),
        add("phone number null", {"targets": [{"phone_number": None}]}),
        add("phone number an integer", {"targets": [{"phone_number": 15550100000}]}),
        add("phone number a list", {"targets": [{"phone_number": [PHONE]}]}),
        add("phone number a bool", {"targets": [{"phone_number": True}]}),
        add("phone number invalid string", {"targets": [{"phone_number": "555-0100"}]}),
        add("phone number letters", {"targets": [{"phone_number": "call me"}]}),
        add("phone object without value", {"targets": [{"phone_number": {}}]}),
        add("phone object value an integer", {"targets": [{"phone_number": {"value": 5}}]}),
        add("phone object value invalid", {"targets": [{"phone_number": {"value": "12"}}]}),
        add(
            "phone object operating hours not an object",
            {"targets": [{"phone_number": {"value": PHONE, "operating_hours": "9-5"}}]},
        ),
        add(
            "operating hours day not a list",
            {"targets": [{"phone_number": {"value": PHONE, "operating_hours": {"monday": "9-5"}}}]},
        ),
        add(
            "operating hours interval missing end",
            {"targets": [{"phone_number": {"value": PHONE, "operating_hours": {"monday": [{"start": "09:00"}]}}}]},
        ),
        add(
            "operating hours bad time",
            {"targets": [{"phone_number": {"value": PHONE, "operating_hours": {"friday": [{"start": "9am", "end": "17:00"}]}}}]},
        ),
        add(
            "operating hours interval backwards",
            {"targets": [{"phone_number": {"value": PHONE, "operating_hours": {"monday": [{"start": "17:00", "end": "09:00"}]}}}]},
        ),
        add(
            "operating hours unknown day",
            {"targets": [{"phone_number": {"value": PHONE, "operating_hours": {"funday": []}}}]},
        ),
        add(
            "operating hours unknown tz",
            {"targets": [{"phone_number": {"value": PHONE, "operating_hours": {"tz": "Mars/Olympus"}}}]},
        ),
        add(
            "operating hours tz not a string",
            {"targets": [{"phone_number": {"value": PHONE, "operating_hours": {"tz": 5}}}]},
        ),
        add(
            "operating hours interval not an object",
            {"targets": [{"phone_number": {"value": PHONE, "operating_hours": {"monday": ["09:00-17:00"]}}}]},
        ),
        add(
            "phone object value and hours both wrong",
            {"targets": [{"phone_number": {"value": 5, "operating_hours": {"monday": 1}}}]},
        ),
        add("fallback phone invalid", {"targets": [target(fallback_phone_number="0")]}),
        add("fallback phone an integer", {"targets": [target(fallback_phone_number=7)]}),
        add("fallback phone object wrong", {"targets": [target(fallback_phone_number={"value": None})]}),
        add("id not a uuid", {"targets": [target(id="not-a-uuid")]}),
        add("id too short", {"targets": [target(id="1234")]}),
        add("id with a bad character", {"targets": [target(id="7d0c3c52-0c52-4d0e-9f6a-2f7c0d6b1a1z")]}),
        add("id group count", {"targets": [target(id="7d0c3c52-0c52-4d0e-9f6a2f7c0d6b1a11")]}),
        add("id an integer", {"targets": [target(id=5)]}),
        add("id null", {"targets": [target(id=None)]}),
        add("external id an integer", {"targets": [target(external_id=42)]}),
        add("external id an object with constructor", {"targets": [target(external_id={"constructor": "x"})]}),
        case("add targets: external id of 501 characters", "POST", TARGETS, body=j({"targets": [target(external_id="x" * 501)]}), compare="status"),
        add("external id of 601 characters", {"targets": [target(external_id="x" * 601)]}),
        add("input data a list", {"targets": [target(input_data=[1])]}),
        add("input data null", {"targets": [target(input_data=None)]}),
        add("input data a string", {"targets": [target(input_data="x")]}),
        add("pre call data a number", {"targets": [target(pre_call_data=1)]}),
        add("patient a string", {"targets": [target(patient="John")]}),
        add(
            "patient fields wrong",
            {"targets": [target(patient={"first_name": 1, "last_name": ["x"], "date_of_birth": {}, "extra_data": "x"})]},
        ),
        add("patient constructor key", {"targets": [target(patient={"first_name": {"constructor": "Object"}})]}),
        add("patient __proto__ key", {"targets": [target(patient={"__proto__": {"first_name": 1}, "last_name": {"__proto__": 1}})]}),
        case("add targets: patient external id of 501 characters", "POST", TARGETS, body=j({"targets": [target(patient={"external_id": "p" * 501})]}), compare="status"),
        add("patient external id of 601 characters", {"targets": [target(patient={"external_id": "p" * 601})]}),
        add("launch not a bool", {"targets": [target()], "launch": "maybe"}),
        add("launch a number", {"targets": [target()], "launch": 2}),
        add("launch null", {"targets": [target()], "launch": None}),
        add("allow duplicates a list", {"targets": [target()], "allow_duplicates": []}),
        add(
            "errors in several targets",
            {"targets": [target(), {"phone_number": "x"}, target(id="bad", input_data=5), {}], "launch": "x"},
        ),
    ]
    return out


def delete_targets_cases():
    out = body_shapes("delete targets", "DELETE", TARGETS)
    d = lambda name, body: case(f"delete targets: {name}", "DELETE", TARGETS, body=j(body))
    out += [
        d("target ids missing", {"ids": ["a"]}),
        d("target ids a string", {"target_ids": "abc"}),
        d("target ids null", {"target_ids": None}),
        d("target id not a string", {"target_ids": ["a", 5, None, {"constructor": 1}]}),
    ]
    return out


def list_targets_cases(prefix, path):
    out = paging_shapes(prefix, path)
    out += [
        case(f"{prefix}: status unknown", "GET", path, query="status=Done"),
        case(f"{prefix}: status wrong case", "GET", path, query="status=pending"),
        accepted(f"{prefix}: status with a space", "GET", path, query="status=In%20Progress"),
        case(f"{prefix}: every parameter wrong", "GET", path, query="page=x&limit=0&status=x&from_date=x&to_date=y&from_last_call_date=z&to_last_call_date=2024-02-30"),
    ]
    out += date_shapes(prefix, path, ["from_date", "to_last_call_date"])
    return out


def calls_cases():
    out = body_shapes("trigger calls", "POST", CALLS)
    c = lambda name, body: case(f"trigger calls: {name}", "POST", CALLS, body=j(body))
    out += [
        c("neither target ids nor count", {"prioritize_oldest": True}),
        c("both target ids and count", {"target_ids": ["a"], "count": 1}),
        c("both null", {"target_ids": None, "count": None}),
        c("count zero", {"count": 0}),
        c("count above maximum", {"count": 10001}),
        c("count a string", {"count": "ten"}),
        c("count a float", {"count": 1.5}),
        case("trigger calls: count true is 1", "POST", CALLS, body=j({"count": True}), compare="status"),
        c("count an object with constructor", {"count": {"constructor": 1}}),
        c("target ids empty", {"target_ids": []}),
        c("target ids not strings", {"target_ids": [1, None]}),
        c("target ids a string", {"target_ids": "a"}),
        c("prioritize oldest not a bool", {"count": 1, "prioritize_oldest": "sometimes"}),
        c("count wrong and prioritize oldest wrong", {"count": -1, "prioritize_oldest": 5}),
    ]
    return out


def batch_step_cases():
    out = body_shapes("batch step", "POST", BATCH_STEP)
    b = lambda name, body: case(f"batch step: {name}", "POST", BATCH_STEP, body=j(body))
    out += [
        b("updates missing", {"update": []}),
        b("updates empty", {"updates": []}),
        b("updates not a list", {"updates": {"target_id": "a"}}),
        b("update not an object", {"updates": [1, None, "x"]}),
        b("update without a target", {"updates": [{"input_data": {}}]}),
        b("update input data missing", {"updates": [{"target_id": "a"}]}),
        b("update input data a list", {"updates": [{"target_id": "a", "input_data": []}]}),
        b("update target id an integer", {"updates": [{"target_id": 1, "input_data": {}}]}),
        b(
            "several updates wrong",
            {"updates": [{"target_id": "a", "input_data": {}}, {"input_data": {}}, {"external_id": {"constructor": 1}, "input_data": 1}, 7]},
        ),
    ]
    return out


def one_step_cases():
    p = "webhook step"
    return [
        case(f"{p}: no body", "POST", ONE_STEP, compare="status"),
        case(f"{p}: empty body", "POST", ONE_STEP, body="", compare="status"),
        case(f"{p}: null body", "POST", ONE_STEP, body="null", compare="status"),
        case(f"{p}: array body", "POST", ONE_STEP, body="[1]"),
        case(f"{p}: number body", "POST", ONE_STEP, body="5"),
        case(f"{p}: string body", "POST", ONE_STEP, body='"x"'),
        case(f"{p}: text/plain body", "POST", ONE_STEP, body="a=1", content_type="text/plain"),
        case(f"{p}: malformed JSON", "POST", ONE_STEP, body='{"a": tru}'),
        case(f"{p}: malformed JSON, trailing comma", "POST", ONE_STEP, body='{"a": 1,}'),
    ]


def ehr_cases():
    out = body_shapes("ehr event", "POST", EHR)
    e = lambda name, body: case(f"ehr event: {name}", "POST", EHR, body=j(body))
    out += [
        e("event type unknown", {"event_type": "appointment_moved", "target_id": "a"}),
        e("event type an integer", {"event_type": 1, "target_id": "a"}),
        e("event data a list", {"event_data": [], "target_id": "a"}),
        e("event data null", {"event_data": None, "target_id": "a"}),
        e("target id an integer", {"target_id": 5}),
        e("external id a list", {"external_id": ["a"]}),
        e("everything wrong", {"event_type": "x", "event_data": "x", "target_id": 1, "external_id": {}}),
    ]
    return out


def rerun_cases():
    out = body_shapes("rerun failed webhooks", "POST", RERUN)
    r = lambda name, body: case(f"rerun failed webhooks: {name}", "POST", RERUN, body=j(body))
    out += [
        r("to date missing", {"from_date": "2026-01-01"}),
        r("from date missing", {"to_date": "2026-01-01"}),
        r("from after to", {"from_date": "2026-02-01T00:00:00Z", "to_date": "2026-01-01T00:00:00Z"}),
        r("from after to, dates", {"from_date": "2026-02-01", "to_date": "2026-01-31"}),
        r("from date words", {"from_date": "last week", "to_date": "2026-01-01"}),
        r("from date hour 25", {"from_date": "2026-01-01T25:00", "to_date": "2026-01-02"}),
        r("from date a bool", {"from_date": True, "to_date": "2026-01-02"}),
        r("from date null", {"from_date": None, "to_date": "2026-01-02"}),
        r("from date a list", {"from_date": [], "to_date": "2026-01-02"}),
        r("from date an object with constructor", {"from_date": {"constructor": 1}, "to_date": "2026-01-02"}),
        r("to date month 13", {"from_date": "2026-01-01", "to_date": "2026-13-01"}),
        r("timestamps from after to", {"from_date": 1800000000, "to_date": 1700000000}),
        r("timestamp string from after to", {"from_date": "1800000000", "to_date": "2026-01-01"}),
        r("both wrong", {"from_date": "x", "to_date": 5.5e300}),
    ]
    return out


def deliveries_cases():
    out = paging_shapes("webhook deliveries", DELIVERIES, limit_le=1000)
    out += [
        case("webhook deliveries: status unknown", "GET", DELIVERIES, query="status=lost"),
        case("webhook deliveries: repeated status, last wrong", "GET", DELIVERIES, query="status=failed&status=x"),
    ]
    return out


def update_target_cases():
    out = body_shapes("update target", "PATCH", TARGET)
    u = lambda name, body: case(f"update target: {name}", "PATCH", TARGET, body=j(body))
    out += [
        u("input data missing", {"only_if_not_started": False}),
        u("input data a list", {"input_data": [1, 2]}),
        u("input data a string", {"input_data": "x"}),
        u("input data null", {"input_data": None}),
        u("only if not started not a bool", {"input_data": {}, "only_if_not_started": "perhaps"}),
        u("only if not started a float", {"input_data": {}, "only_if_not_started": 0.5}),
        u("both wrong", {"input_data": 1, "only_if_not_started": {"constructor": True}}),
    ]
    return out


def call_logs_cases():
    out = paging_shapes("call logs", CALL_LOGS, limit_le=1000)
    out += date_shapes("call logs", CALL_LOGS, ["from_date", "to_date"])
    out += [
        accepted("call logs: campaign id any string", "GET", CALL_LOGS, query="campaign_id=anything"),
        case("call logs: every parameter wrong", "GET", CALL_LOGS, query="page=-1&limit=1001&from_date=x&to_date=2024-99-99"),
    ]
    return out


def call_log_cases():
    base = "/api/v1/call-logs/"
    return [
        case("call log: id not an integer", "GET", base + "abc"),
        case("call log: id negative", "GET", base + "-1"),
        case("call log: id fractional", "GET", base + "1.5"),
        case("call log: id 2^63", "GET", base + "9223372036854775808"),
        case("call log: id far above 2^63", "GET", base + "123456789012345678901234567890"),
        case("call log: id a uuid", "GET", base + "7d0c3c52-0c52-4d0e-9f6a-2f7c0d6b1a11"),
        case("call log: include recordings not a bool", "GET", base + "0", query="include_recordings=perhaps"),
        case("call log: include recordings repeated, last wrong", "GET", base + "0", query="include_recordings=true&include_recordings=2"),
        case("call log: include recordings empty", "GET", base + "0", query="include_recordings="),
    ]


def live_call_cases():
    path = "/api/v1/live-calls"
    return [
        case("live call: call log id not an integer", "GET", path, query="call_log_id=abc"),
        case("live call: call log id fractional", "GET", path, query="call_log_id=1.5"),
        case("live call: call log id empty", "GET", path, query="call_log_id="),
        case("live call: call log id repeated, last wrong", "GET", path, query="call_log_id=1&call_log_id=x"),
        case("live call: call log id and key both given, id wrong", "GET", path, query="call_log_id=1e3&key=mrn&value=1"),
    ]


def campaign_body_cases(prefix, method, path, base):
    c = lambda name, body: case(f"{prefix}: {name}", method, path, body=j({**base, **body}))
    return [
        c("name empty", {"name": ""}),
        c("name an integer", {"name": 5}),
        c("name constructor object", {"name": {"constructor": "x"}}),
        c("name too long", {"name": "n" * 201}),
        c("type unknown", {"type": "robocall"}),
        c("type null", {"type": None}),
        c("caller id too long", {"caller_id": "1" * 33}),
        c("max attempts zero", {"max_attempts": 0}),
        c("max attempts above maximum", {"max_attempts": 21}),
        c("max attempts a numeric string", {"max_attempts": "5", "retry_delay_minutes": "x"}),
        c("max attempts a float", {"max_attempts": 2.5}),
        c("max attempts null", {"max_attempts": None}),
        c("max concurrent calls a bool", {"max_concurrent_calls": False}),
        c("retry delay negative", {"retry_delay_minutes": -5}),
        c("calling window a string", {"calling_window": "weekdays"}),
        c("calling window day wrong", {"calling_window": {"monday": [{"start": "09:00", "end": "25:00"}]}}),
        c("calling window interval missing start", {"calling_window": {"tuesday": [{"end": "17:00"}]}}),
        c("calling window unknown key", {"calling_window": {**SCHEDULE, "holidays": []}}),
        c("calling window backwards", {"calling_window": {"sunday": [{"start": "12:00", "end": "11:00"}]}}),
        c("calling window tz unknown", {"calling_window": {"tz": "Nowhere/City"}}),
        c("steps not a list", {"steps": {"friendly_id": "a"}}),
        c("step not an object", {"steps": ["intake"]}),
        c("step fields wrong", {"steps": [{"friendly_id": "a b", "type": "sms", "on_receive": "later"}]}),
        c("step friendly id empty", {"steps": [{"friendly_id": "", "type": "webhook"}]}),
        c("step missing fields", {"steps": [{}]}),
        c("steps duplicated", {"steps": [{"friendly_id": "a", "type": "webhook"}, {"friendly_id": "a", "type": "ehr_event"}]}),
        c("entry step an integer", {"entry_step": 1}),
        c("blacklist ids not uuids", {"blacklist_ids": ["x", 5, "7d0c3c52-0c52-4d0e-9f6a-2f7c0d6b1a11"]}),
        c("blacklist ids a string", {"blacklist_ids": "x"}),
        c("webhook url not a url", {"webhook_url": "not a url"}),
        c("webhook url ftp", {"webhook_url": "ftp://example.com/x"}),
        c("webhook url an integer", {"webhook_url": 5}),
        c("several fields wrong", {"name": None, "max_attempts": "x", "calling_window": {"monday": 5}, "webhook_url": []}),
    ]


def campaigns_cases():
    out = body_shapes("create campaign", "POST", CAMPAIGNS)
    out += [
        case("create campaign: name missing", "POST", CAMPAIGNS, body=j({"type": "patient"})),
        case("create campaign: type missing", "POST", CAMPAIGNS, body=j({"name": "x"})),
    ]
    out += campaign_body_cases("create campaign", "POST", CAMPAIGNS, {"name": "Reminders", "type": "patient"})
    out += paging_shapes("list campaigns", CAMPAIGNS)
    out += body_shapes("update campaign", "PATCH", CAMPAIGN)[:7]
    out += campaign_body_cases("update campaign", "PATCH", CAMPAIGN, {})
    return out


def blacklists_cases():
    out = body_shapes("create blacklist", "POST", BLACKLISTS)
    bl = lambda name, body: case(f"create blacklist: {name}", "POST", BLACKLISTS, body=j(body))
    out += [
        bl("name empty", {"name": ""}),
        bl("name a list", {"name": ["x"]}),
        bl("description an integer", {"name": "x", "description": 1}),
        bl("description too long", {"name": "x", "description": "d" * 2001}),
    ]
    out += paging_shapes("list blacklists", BLACKLISTS)
    out += body_shapes("add blacklist numbers", "POST", BLACKLIST_NUMBERS)
    an = lambda name, body: case(f"add blacklist numbers: {name}", "POST", BLACKLIST_NUMBERS, body=j(body))
    out += [
        an("phone numbers empty", {"phone_numbers": []}),
        an("phone numbers strings", {"phone_numbers": ["+15550100000"]}),
        an("entry phone number missing", {"phone_numbers": [{"reason": "x"}]}),
        an("entry fields wrong", {"phone_numbers": [{"phone_number": 1, "reason": 2, "level": [], "name": {}, "comment": True}]}),
        an("entry reason too long", {"phone_numbers": [{"phone_number": "+1", "reason": "r" * 501}]}),
    ]
    out += body_shapes("remove blacklist numbers", "DELETE", BLACKLIST_NUMBERS)[:8]
    rn = lambda name, body: case(f"remove blacklist numbers: {name}", "DELETE", BLACKLIST_NUMBERS, body=j(body))
    out += [
        rn("phone numbers empty", {"phone_numbers": []}),
        rn("phone numbers objects", {"phone_numbers": [{"phone_number": "+1"}]}),
    ]
    out += paging_shapes("list blacklist numbers", BLACKLIST_NUMBERS, page_name="skip", limit_le=1000)
    return out


def hostile_cases():
    deep = '{"name": ' + "[" * 70 + "]" * 70 + ', "type": "patient"}'
    return [
        case("hostile: NaN is not JSON", "POST", CAMPAIGNS, body='{"name": NaN, "type": "patient"}'),
        case("hostile: Infinity is not JSON", "POST", CAMPAIGNS, body='{"name": "x", "max_attempts": -Infinity}'),
        case("hostile: nested 70 levels deep", "POST", CAMPAIGNS, body=deep),
        case("hostile: constructor key where a string belongs", "POST", CAMPAIGNS, body=j({"name": {"constructor": "x"}, "type": "patient"})),
        case("hostile: __proto__ key where a model belongs", "POST", TARGETS, body=j({"targets": [{"__proto__": {"phone_number": PHONE}}]})),
    ]


GROUPS = {
    "campaigns": campaigns_cases,
    "targets-add": add_targets_cases,
    "targets-delete": delete_targets_cases,
    "targets-list": lambda: list_targets_cases("list targets", TARGETS)
    + list_targets_cases("list patient targets", PATIENT_TARGETS)[:6],
    "targets-update": update_target_cases,
    "calls": calls_cases,
    "steps": lambda: batch_step_cases() + one_step_cases() + ehr_cases(),
    "webhooks": lambda: rerun_cases() + deliveries_cases(),
    "call-logs": lambda: call_logs_cases() + call_log_cases(),
    "live-calls": live_call_cases,
    "blacklists": blacklists_cases,
    "hostile": hostile_cases,
}

# Cases where the service answers differently from FastAPI on purpose; see DECISIONS.md.
JSON_ONLY = (
    "DECISIONS (wire conventions): JSON everywhere. Python's json module also reads NaN and Infinity, "
    "which are not JSON (RFC 8259) and which PostgreSQL's jsonb refuses (FastAPI then fails with a 500 "
    "echoing NaN back); the service answers json_invalid where the JSON grammar stops, in Python's words."
)
EXTERNAL_ID_LENGTH = (
    "The reference sets no length on external ids. Ours are keys of a unique btree index, whose entries "
    "hold at most 2,676 bytes of text: 600 characters fit whatever they are (up to 4 bytes each in UTF-8), "
    "so longer ones are refused up front instead of failing the insert (docs/targets.md)."
)


def too_long_external_id(loc, value):
    return j({"detail": [{"type": "string_too_long", "loc": loc, "msg": "String should have at most 600 characters", "input": value, "ctx": {"max_length": 600}}]})


SEVEN_DIGITS = (
    "Issue 44: seven digits written without + are a local number as people write it (253-1217), which "
    "the rule alone would send to the country code. The service keeps the reference's words and adds, "
    "in the same item, that the area code is missing (src/common/phone/phone-number.ts, docs/targets.md)."
)
PHONE_RULE = (
    "Value error, phone number must be + followed by 7 to 15 digits "
    "(spaces, dashes, dots and parentheses are ignored)"
)

DIFFERENCES = {
    "add targets: phone number invalid string": {
        "reason": SEVEN_DIGITS,
        "status": 422,
        "body": j({"detail": [{"type": "value_error", "loc": ["body", "targets", 0, "phone_number"], "msg": PHONE_RULE + ": 555-0100 has only 7 digits, add the area code", "input": "555-0100", "ctx": {"error": {}}}]}),
    },
    "add targets: external id of 601 characters": {
        "reason": EXTERNAL_ID_LENGTH,
        "status": 422,
        "body": too_long_external_id(["body", "targets", 0, "external_id"], "x" * 601),
    },
    "add targets: patient external id of 601 characters": {
        "reason": EXTERNAL_ID_LENGTH,
        "status": 422,
        "body": too_long_external_id(["body", "targets", 0, "patient", "external_id"], "p" * 601),
    },
    "hostile: NaN is not JSON": {
        "reason": JSON_ONLY,
        "status": 422,
        "body": j({"detail": [{"type": "json_invalid", "loc": ["body", 9], "msg": "JSON decode error", "input": {}, "ctx": {"error": "Expecting value"}}]}),
    },
    "hostile: Infinity is not JSON": {
        "reason": JSON_ONLY,
        "status": 422,
        "body": j({"detail": [{"type": "json_invalid", "loc": ["body", 30], "msg": "JSON decode error", "input": {}, "ctx": {"error": "Expecting value"}}]}),
    },
    "hostile: nested 70 levels deep": {
        "reason": (
            "Issue 16 (no input makes a 5xx): JSON nested deeper than 64 levels is refused before it is "
            "parsed, so that no recursion (validation, logging, jsonb) can overflow on a hostile body. "
            "FastAPI reads it (up to Python's recursion limit) and echoes it back in the error."
        ),
        "status": 422,
        "body": j({"detail": [{"type": "json_invalid", "loc": ["body", 72], "msg": "JSON decode error", "input": {}, "ctx": {"error": "JSON must not be nested more than 64 levels deep"}}]}),
    },
}

CONTENT_TYPE_HINT = (
    "A body sent with another content type than JSON is read as text, which no schema accepts. FastAPI "
    "says only that the input is not an object; the service says in the same item which content type "
    "the text was sent as and which one to send (src/common/http/json-body.ts, docs/api.md)."
)
HINT = ": the body was sent as text/plain; send JSON with the header Content-Type: application/json"
TEXT_PLAIN_BODIES = {
    "model_attributes_type": (
        "Input should be a valid dictionary or object to extract fields from",
        "hello",
        [
            "create blacklist", "add blacklist numbers", "remove blacklist numbers", "trigger calls",
            "create campaign", "update campaign", "batch step", "ehr event", "add targets",
            "delete targets", "update target", "rerun failed webhooks",
        ],
    ),
    "dict_type": ("Input should be a valid dictionary", "a=1", ["webhook step"]),
}
for error_type, (msg, text, prefixes) in TEXT_PLAIN_BODIES.items():
    for prefix in prefixes:
        DIFFERENCES[f"{prefix}: text/plain body"] = {
            "reason": CONTENT_TYPE_HINT,
            "status": 422,
            "body": j({"detail": [{"type": error_type, "loc": ["body"], "msg": msg + HINT, "input": text}]}),
        }
