import { LoggerService } from '@nestjs/common';

/** Nest's start-up chatter: one line per module and per route, which buries what a person needs. */
const BOOT_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
]);

/**
 * Forwards to the JSON logger, minus Nest's informational start-up lines (warnings and errors stay),
 * and minus Nest's own log of a taken port: the start reports it as one line naming the port and
 * the setting that moves it (`PortInUseError`, src/bootstrap.ts).
 */
export class QuietNestLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...rest: unknown[]): void {
    if (!BOOT_CONTEXTS.has(String(rest.at(-1)))) this.inner.log(message, ...rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    const portTaken =
      rest.at(-1) === 'NestApplication' && String(message).startsWith('Error: listen EADDRINUSE');
    if (!portTaken) this.inner.error(message, ...rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.inner.warn(message, ...rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.inner.debug?.(message, ...rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.inner.verbose?.(message, ...rest);
  }
}
