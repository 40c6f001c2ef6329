/**
 * A campaign's calling window edited as days and hours: "any time" or a time zone and, per weekday,
 * its `HH:MM`–`HH:MM` ranges (the API's WeekSchedule). It reads and writes the same JSON text the
 * settings form keeps for every field, so saving, "only what changed" and the API's 422 work as for
 * any other field; a value it cannot show as days (not a JSON object) is left to edit as text.
 */
import { EditorFieldset, JsonFallback, type FieldEditorProps } from './field-editor.js';
import { ZoneSelect } from './zone-select.js';

const DAYS = [
  ['monday', 'Monday'],
  ['tuesday', 'Tuesday'],
  ['wednesday', 'Wednesday'],
  ['thursday', 'Thursday'],
  ['friday', 'Friday'],
  ['saturday', 'Saturday'],
  ['sunday', 'Sunday'],
] as const;

interface Range {
  start: string;
  end: string;
}
type Schedule = Record<string, unknown> & { tz?: string };

/** null: any time; undefined: the text is no schedule this editor can show. */
function parse(text: string): Schedule | null | undefined {
  if (text.trim() === '' || text.trim() === 'null') return null;
  try {
    const value: unknown = JSON.parse(text);
    if (value === null) return null;
    return typeof value === 'object' && !Array.isArray(value) ? (value as Schedule) : undefined;
  } catch {
    return undefined;
  }
}

function rangesOf(schedule: Schedule, day: string): Range[] {
  const v = schedule[day];
  return Array.isArray(v) ? (v as Range[]) : [];
}

/** Weekdays in order (days without hours left out), then the zone; other keys kept as they were. */
function write(schedule: Schedule): string {
  const out: Record<string, unknown> = {};
  for (const [day] of DAYS) if (rangesOf(schedule, day).length) out[day] = schedule[day];
  for (const [k, v] of Object.entries(schedule))
    if (!DAYS.some(([d]) => d === k) && k !== 'tz') out[k] = v;
  out.tz = schedule.tz ?? '';
  return JSON.stringify(out, null, 2);
}

const OFFICE_HOURS: Range[] = [{ start: '09:00', end: '17:00' }];

/** One end of a range, `HH:MM` as text (a time input cannot say 24:00, the end of a day). */
function TimeInput(props: {
  label: string;
  placeholder: string;
  value: string;
  onValue: (value: string) => void;
}) {
  return (
    <input
      type="text"
      inputMode="numeric"
      size={5}
      placeholder={props.placeholder}
      aria-label={props.label}
      value={props.value}
      onInput={(e) => props.onValue((e.target as HTMLInputElement).value)}
    />
  );
}

/** The operator's own zone to start from (a US one when theirs is not, as the API's default is). */
function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'America/New_York';
}

export function WeekScheduleEditor(props: FieldEditorProps) {
  const { id, text, onText } = props;
  const schedule = parse(text);
  if (schedule === undefined) {
    return <JsonFallback {...props} rows={5} />;
  }
  const set = (next: Schedule | null) => onText(next === null ? 'null' : write(next));
  const setRanges = (day: string, ranges: Range[]) => set({ ...schedule!, [day]: ranges });
  return (
    <EditorFieldset {...props} class="week">
      <div class="field check">
        <input
          id={`${id}-any`}
          type="checkbox"
          checked={schedule === null}
          onChange={(e) =>
            set(
              (e.target as HTMLInputElement).checked
                ? null
                : {
                    monday: OFFICE_HOURS,
                    tuesday: OFFICE_HOURS,
                    wednesday: OFFICE_HOURS,
                    thursday: OFFICE_HOURS,
                    friday: OFFICE_HOURS,
                    tz: browserZone(),
                  },
            )
          }
        />
        <label for={`${id}-any`}>Any time (no calling window)</label>
      </div>
      {schedule === null ? null : (
        <>
          <div class="field">
            <label for={`${id}-tz`}>Time zone of these hours</label>
            <ZoneSelect
              id={`${id}-tz`}
              value={schedule.tz ?? ''}
              describedBy={`${id}-tz-help`}
              onValue={(tz) => set({ ...schedule, tz })}
            />
            <p class="muted help" id={`${id}-tz-help`}>
              These hours are read in this zone: 09:00–17:00 Eastern is 06:00–14:00 for a patient in
              Los Angeles. On top of them, the calling rules (quiet hours, state rules) are read in
              the patient’s own zone, from their phone number or the zone given with them: a patient
              in Honolulu is called only between 08:00 and 21:00 Honolulu time, whatever these hours
              say.
            </p>
          </div>
          <ul class="week-days">
            {DAYS.map(([day, name]) => {
              const ranges = rangesOf(schedule, day);
              const change = (i: number, key: keyof Range, value: string) =>
                setRanges(
                  day,
                  ranges.map((r, j) => (j === i ? { ...r, [key]: value } : r)),
                );
              return (
                <li key={day} data-day={day}>
                  <span class="day">{name}</span>
                  <div class="ranges">
                    {ranges.length === 0 ? <span class="muted">no calls</span> : null}
                    {ranges.map((r, i) => (
                      <span class="range" key={i}>
                        <TimeInput
                          label={`${name} from`}
                          placeholder="09:00"
                          value={r.start}
                          onValue={(v) => change(i, 'start', v)}
                        />
                        {' – '}
                        <TimeInput
                          label={`${name} until`}
                          placeholder="17:00"
                          value={r.end}
                          onValue={(v) => change(i, 'end', v)}
                        />
                        <button
                          type="button"
                          class="secondary small"
                          aria-label={`Remove ${name} ${r.start}–${r.end}`}
                          onClick={() =>
                            setRanges(
                              day,
                              ranges.filter((_, j) => j !== i),
                            )
                          }
                        >
                          ×
                        </button>
                      </span>
                    ))}
                    <button
                      type="button"
                      class="secondary small"
                      aria-label={`Add hours to ${name}`}
                      onClick={() =>
                        setRanges(day, [
                          ...ranges,
                          ranges.length ? { start: '', end: '' } : OFFICE_HOURS[0],
                        ])
                      }
                    >
                      + hours
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </EditorFieldset>
  );
}
