/**
 * Where and why Python's `json.loads` (what FastAPI parses bodies with) rejects a text: the message of its
 * C scanner and the position in characters (code points). FastAPI's 422 `json_invalid` shows exactly these,
 * so the service replays Python's scanner instead of showing V8's wording.
 *
 * Only called on a text that is already known to be invalid (JSON.parse failed), so it need not be fast.
 * NaN and Infinity, which Python accepts, are refused here as V8 refuses them (DECISIONS: JSON only).
 */
export interface PythonJsonError {
  msg: string;
  pos: number;
}

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/;
const HEX = /^[0-9a-fA-F]$/;

class Failure {
  constructor(
    readonly msg: string,
    readonly pos: number,
  ) {}
}

export function pythonJsonError(text: string): PythonJsonError | null {
  const s = Array.from(text);
  try {
    const idx = skipWs(s, scanValue(s, skipWs(s, 0)));
    if (idx !== s.length) throw new Failure('Extra data', idx);
    return null;
  } catch (e) {
    if (e instanceof Failure) return { msg: e.msg, pos: e.pos };
    throw e;
  }
}

function skipWs(s: string[], idx: number): number {
  while (idx < s.length && WS.has(s[idx])) idx++;
  return idx;
}

/**
 * Returns the index after the value at `idx`. When there is none, Python's `scan_once` raises
 * StopIteration and its caller "Expecting value" at `idx`: said here at once.
 */
function scanValue(s: string[], idx: number): number {
  if (idx >= s.length) throw new Failure('Expecting value', idx);
  const c = s[idx];
  if (c === '"') return scanString(s, idx + 1);
  if (c === '{') return parseObject(s, idx + 1);
  if (c === '[') return parseArray(s, idx + 1);
  for (const literal of ['null', 'true', 'false']) {
    if (c === literal[0] && s.slice(idx, idx + literal.length).join('') === literal) {
      return idx + literal.length;
    }
  }
  const number = NUMBER.exec(s.slice(idx, idx + 400).join(''));
  if (number) return idx + Array.from(number[0]).length;
  throw new Failure('Expecting value', idx);
}

/** `end` is the index just after the opening quote. */
function scanString(s: string[], end: number): number {
  const begin = end - 1;
  for (;;) {
    let next = end;
    let c = '';
    for (; next < s.length; next++) {
      c = s[next];
      if (c === '"' || c === '\\') break;
      if (c.codePointAt(0)! <= 0x1f) throw new Failure('Invalid control character at', next);
    }
    if (next >= s.length) throw new Failure('Unterminated string starting at', begin);
    next++;
    if (c === '"') return next;
    if (next === s.length) throw new Failure('Unterminated string starting at', begin);
    c = s[next];
    if (c !== 'u') {
      end = next + 1;
      if (!'"\\/bfnrt'.includes(c)) throw new Failure('Invalid \\escape', end - 2);
      continue;
    }
    next++;
    end = next + 4;
    if (end >= s.length) throw new Failure('Invalid \\uXXXX escape', next - 1);
    let code = 0;
    for (; next < end; next++) {
      if (!HEX.test(s[next])) throw new Failure('Invalid \\uXXXX escape', end - 5);
      code = code * 16 + parseInt(s[next], 16);
    }
    if (code >= 0xd800 && code <= 0xdbff && end + 6 < s.length) {
      if (s[next++] === '\\' && s[next++] === 'u') {
        end += 6;
        for (; next < end; next++) {
          if (!HEX.test(s[next])) throw new Failure('Invalid \\uXXXX escape', end - 5);
        }
      }
    }
  }
}

function parseObject(s: string[], end: number): number {
  let next = s[end] ?? '';
  if (next !== '"') {
    if (WS.has(next)) {
      end = skipWs(s, end);
      next = s[end] ?? '';
    }
    if (next === '}') return end + 1;
    if (next !== '"') {
      throw new Failure('Expecting property name enclosed in double quotes', end);
    }
  }
  end += 1;
  for (;;) {
    end = scanString(s, end);
    if (s[end] !== ':') {
      end = skipWs(s, end);
      if (s[end] !== ':') throw new Failure("Expecting ':' delimiter", end);
    }
    end = skipWs(s, end + 1);
    end = scanValue(s, end);
    end = skipWs(s, end);
    next = s[end] ?? '';
    end += 1;
    if (next === '}') return end;
    if (next !== ',') throw new Failure("Expecting ',' delimiter", end - 1);
    end = skipWs(s, end);
    next = s[end] ?? '';
    end += 1;
    if (next !== '"') {
      throw new Failure('Expecting property name enclosed in double quotes', end - 1);
    }
  }
}

function parseArray(s: string[], end: number): number {
  end = skipWs(s, end);
  if (s[end] === ']') return end + 1;
  for (;;) {
    end = scanValue(s, end);
    end = skipWs(s, end);
    const next = s[end] ?? '';
    end += 1;
    if (next === ']') return end;
    if (next !== ',') throw new Failure("Expecting ',' delimiter", end - 1);
    end = skipWs(s, end);
  }
}
