import { Injectable } from '@nestjs/common';
import { Redactor } from '../application/ports/redactor.js';
import { redactKnownValues, redactPatterns } from '../domain/redaction.js';

/** The default `Redactor`: the target's known values, then emails, cards, SSNs, phone numbers, dates. */
@Injectable()
export class PatternRedactor extends Redactor {
  redact(text: string, known: readonly string[]): string {
    return redactPatterns(redactKnownValues(text, known));
  }
}
