/**
 * A time zone chosen from a list (never typed): the US zones first, by the names people use, then every
 * zone the browser knows. A value not in either (a legacy name such as `US/Eastern`, which the API
 * accepts) is kept as the first choice, so opening a form never changes a setting.
 */
const US_ZONES: [string, string][] = [
  ['America/New_York', 'Eastern (New York)'],
  ['America/Chicago', 'Central (Chicago)'],
  ['America/Denver', 'Mountain (Denver)'],
  ['America/Phoenix', 'Arizona (Phoenix, no daylight saving)'],
  ['America/Los_Angeles', 'Pacific (Los Angeles)'],
  ['America/Anchorage', 'Alaska (Anchorage)'],
  ['Pacific/Honolulu', 'Hawaii (Honolulu)'],
  ['America/Puerto_Rico', 'Atlantic (Puerto Rico)'],
];

const LEGACY: Record<string, string> = {
  'US/Eastern': 'Eastern (US/Eastern)',
  'US/Central': 'Central (US/Central)',
  'US/Mountain': 'Mountain (US/Mountain)',
  'US/Pacific': 'Pacific (US/Pacific)',
  'US/Alaska': 'Alaska (US/Alaska)',
  'US/Hawaii': 'Hawaii (US/Hawaii)',
  'US/Arizona': 'Arizona (US/Arizona)',
};

function allZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  try {
    return intl.supportedValuesOf?.('timeZone') ?? [];
  } catch {
    return [];
  }
}

export function ZoneSelect({
  id,
  value,
  onValue,
  describedBy,
  invalid,
}: {
  id: string;
  value: string;
  onValue: (zone: string) => void;
  describedBy?: string;
  invalid?: boolean;
}) {
  const others = allZones().filter((z) => !US_ZONES.some(([u]) => u === z));
  const known = US_ZONES.some(([u]) => u === value) || others.includes(value);
  return (
    <select
      id={id}
      value={value}
      aria-describedby={describedBy}
      aria-invalid={invalid ? true : undefined}
      onChange={(e) => onValue((e.target as HTMLSelectElement).value)}
    >
      {known ? null : (
        <option value={value}>{value ? (LEGACY[value] ?? value) : 'Choose a zone'}</option>
      )}
      <optgroup label="United States">
        {US_ZONES.map(([zone, words]) => (
          <option key={zone} value={zone}>
            {words}
          </option>
        ))}
      </optgroup>
      {others.length ? (
        <optgroup label="Every zone">
          {others.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replace(/_/g, ' ')}
            </option>
          ))}
        </optgroup>
      ) : null}
    </select>
  );
}
