import { ModuleMetadata, Provider, Type } from '@nestjs/common';
import { PreDialCheck, PreDialChecks } from './modules/calling/application/ports/pre-dial-check.js';
import {
  VoiceProvider,
  VoiceProviders,
} from './modules/provider-connection/application/ports/voice-provider.js';
import {
  CampaignEventListener,
  CampaignEventListeners,
} from './modules/target/application/ports/campaign-event-listener.js';
import { OutboxListeners } from './modules/webhook/application/ports/outbox-listeners.js';
import { HttpAgentVoiceProvider } from './modules/calling/infrastructure/http-agent-voice-provider.js';
import { SimulatedVoiceProvider } from './modules/calling/infrastructure/simulated-voice-provider.js';
import { RetellVoiceProvider } from './modules/provider-connection/infrastructure/clients/retell-voice-provider.js';
import { TwilioVoiceProvider } from './modules/provider-connection/infrastructure/clients/twilio-voice-provider.js';
import { VapiVoiceProvider } from './modules/provider-connection/infrastructure/clients/vapi-voice-provider.js';

/** A class Nest builds (its constructor's ports and services injected) or an instance. */
export type Extension<T> = Type<T> | T;

/** The extension points `CampaignCallingModule.forRoot` (and the testing module) take. */
export interface ExtensionOptions {
  /** Consulted by the dispatcher before every call, in this order (docs/extending.md). */
  preDialChecks?: readonly Extension<PreDialCheck>[];
  /** Connection types of a team's own carriers, beside the built-in ones (docs/extending.md). */
  voiceProviders?: readonly Extension<VoiceProvider>[];
  /** Told of call, message and target events after they commit, in-process, at most once (docs/extending.md). */
  listeners?: readonly Extension<CampaignEventListener>[];
  /**
   * Modules of the app whose exported providers the extension classes inject (as
   * `TypeOrmModule.forRootAsync({ imports })`): a check that injects a `ConsentClient` names the
   * module exporting it here, and needs no `@Global()`.
   */
  imports?: ModuleMetadata['imports'];
  /** Providers the extension classes inject that no module of the app exports. */
  providers?: readonly Provider[];
}

const isClass = (value: unknown): value is Type => typeof value === 'function';

/** A registry filled with the given extensions: classes are built by Nest, instances used as they are. */
function registry<T, R>(
  token: Type<R>,
  extensions: readonly Extension<T>[],
  build: (items: T[]) => R,
): Provider[] {
  const classes = extensions.filter(isClass);
  return [
    ...classes,
    {
      provide: token,
      inject: classes,
      useFactory: (...built: T[]) => {
        let next = 0;
        return build(extensions.map((e) => (isClass(e) ? built[next++] : e)));
      },
    },
  ];
}

/**
 * The built-in connection types, registered as a team's `voiceProviders` are (classes Nest builds,
 * in the same registry): a new built-in provider is its `CallProvider`, its `VoiceProvider` and its
 * line here (docs/providers.md, "Adding a provider").
 */
export const BUILT_IN_VOICE_PROVIDERS: readonly Type<VoiceProvider>[] = [
  SimulatedVoiceProvider,
  HttpAgentVoiceProvider,
  TwilioVoiceProvider,
  VapiVoiceProvider,
  RetellVoiceProvider,
];

export function extensionProviders(options: ExtensionOptions): Provider[] {
  return [
    ...registry(PreDialChecks, options.preDialChecks ?? [], (checks) => new PreDialChecks(checks)),
    ...registry(
      VoiceProviders,
      [...BUILT_IN_VOICE_PROVIDERS, ...(options.voiceProviders ?? [])],
      (providers) =>
        new VoiceProviders(
          providers.slice(BUILT_IN_VOICE_PROVIDERS.length),
          providers.slice(0, BUILT_IN_VOICE_PROVIDERS.length),
        ),
    ),
    ...registry(
      CampaignEventListeners,
      options.listeners ?? [],
      (listeners) => new CampaignEventListeners(listeners),
    ),
    // The webhook module's outbox tells the same registry of the call and message events it records.
    { provide: OutboxListeners, useExisting: CampaignEventListeners },
  ];
}
