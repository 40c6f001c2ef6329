/**
 * An `Etc/GMT` zone whose wall clock reads `hour`:xx now (`Etc/GMT-3` is UTC+3), so that a test or
 * benchmark of the calling rules finds a recipient open (an afternoon) or closed (the small hours)
 * whatever the hour it runs at.
 */
export function zoneWhereClockReads(hour: number, now = new Date()): string {
  let offset = hour - now.getUTCHours();
  if (offset > 14) offset -= 24;
  if (offset < -12) offset += 24;
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}
