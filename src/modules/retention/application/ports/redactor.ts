/**
 * Redacts one text before it is stored: the target's own known values (`known`, longest first) and
 * whatever patterns of personal data the adapter knows. A team binds its own through `forRoot`
 * (`adapters: [[Redactor, MyRedactor]]`), e.g. to call a PHI detection service; it must answer the
 * text with nothing of the original kept, and be fast (it runs inside the transaction that ends a call).
 */
export abstract class Redactor {
  abstract redact(text: string, known: readonly string[]): Promise<string> | string;
}
