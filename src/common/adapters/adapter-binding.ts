import type { InjectionToken, Provider, Type } from '@nestjs/common';

/** A port: the abstract class that is also its injection token. */
export type Port<T = unknown> = abstract new (...args: any[]) => T;

/** What fills a port: a class Nest builds (its constructor's ports injected), a value, a factory. */
export type Adapter<T = unknown> =
  | Type<T>
  | { useValue: T }
  | { useFactory: (...deps: any[]) => T | Promise<T>; inject?: InjectionToken[] }
  | { useExisting: InjectionToken };

/** A port and the adapter chosen for it, e.g. `[WebhookSender, MySender]`. */
export type AdapterBinding<T = unknown> = readonly [Port<T>, Adapter<T>];

export function adapterProvider([port, adapter]: AdapterBinding): Provider {
  return typeof adapter === 'function'
    ? { provide: port, useClass: adapter }
    : ({ provide: port, ...adapter } as Provider);
}

export function providedToken(provider: Provider): InjectionToken {
  return typeof provider === 'function' ? provider : provider.provide;
}

/** The default bindings, each port whose adapter was chosen bound to that one instead. */
export function withAdapters(
  defaults: readonly Provider[],
  chosen: readonly AdapterBinding[] = [],
): Provider[] {
  const replaced = new Set<InjectionToken>(chosen.map(([port]) => port));
  return [
    ...defaults.filter((p) => !replaced.has(providedToken(p))),
    ...chosen.map(adapterProvider),
  ];
}
