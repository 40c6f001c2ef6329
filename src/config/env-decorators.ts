import { applyDecorators } from '@nestjs/common';
import bytes from 'bytes';
import { Transform } from 'class-transformer';
import { ValidateBy, ValidationArguments } from 'class-validator';
import ms from 'ms';

/**
 * Decorators that read one environment variable's text into a typed value and refuse what they cannot
 * read, naming what was expected and what was given. A variable is then one line of `EnvVars`:
 *
 *   @IsOptional() @int() @Min(1) MAX_CALL_MINUTES = 10;
 *
 * A default is already typed (a number, a boolean) and is kept as it is.
 */
class Unreadable {
  constructor(
    readonly raw: string,
    /** Why, when the parser said more than "not what was expected". */
    readonly reason: string | null,
  ) {}
}

function parsed(expected: string, parse: (raw: string) => unknown): PropertyDecorator {
  const transform = Transform(({ value }) => {
    if (typeof value !== 'string') return value;
    try {
      const result = value.trim() === '' ? undefined : parse(value.trim());
      return result === undefined ? new Unreadable(value, null) : result;
    } catch (err) {
      return new Unreadable(value, (err as Error).message);
    }
  });
  const validate = ValidateBy({
    name: 'readable',
    validator: {
      validate: (value: unknown) => !(value instanceof Unreadable),
      defaultMessage: (args?: ValidationArguments) => {
        const { raw, reason } = args!.value as Unreadable;
        if (reason) return reason;
        return raw.trim() === ''
          ? `must not be empty (${expected})`
          : `must be ${expected}, got "${raw}"`;
      },
    },
  });
  return applyDecorators(transform, validate);
}

const BOOLEANS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

/** `true`, `false`, `1` or `0` (any case); anything else is refused. */
export const bool = () => parsed('true, false, 1 or 0', (raw) => BOOLEANS[raw.toLowerCase()]);

export const int = () =>
  parsed('an integer', (raw) => (/^[-+]?\d+$/.test(raw) ? Number(raw) : undefined));

export const num = () =>
  parsed('a number', (raw) => {
    const n = Number(raw);
    return Number.isFinite(n) ? n : undefined;
  });

/** Milliseconds. `500ms`, `25s`, `2m`, `1h`; a bare number is seconds. */
export const duration = () =>
  parsed('a duration such as 500ms, 25s or 2m', (raw) => parseDuration(raw) ?? undefined);

export function parseDuration(raw: string): number | null {
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000);
  const value = ms(raw as ms.StringValue) as number | undefined;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** A size as body-parser reads it: `512kb`, `25mb`, or bytes. Kept as the text. */
export const size = () =>
  parsed('a size such as 512kb or 25mb', (raw) => {
    const n = bytes.parse(raw);
    return typeof n === 'number' && Number.isFinite(n) && n > 0 ? raw : undefined;
  });

/** An absolute http(s) URL, kept as the text without a trailing slash. */
export const httpUrl = () =>
  parsed('an http(s) URL such as https://calls.example.com', (raw) => {
    const protocol = URL.parse(raw)?.protocol;
    return protocol === 'http:' || protocol === 'https:' ? raw.replace(/\/$/, '') : undefined;
  });

/**
 * Any value `parse` accepts. It returns undefined for what it refuses, or throws an Error whose message
 * then says what is wrong.
 */
export const readWith = <T>(expected: string, parse: (raw: string) => T | undefined) =>
  parsed(expected, parse);
