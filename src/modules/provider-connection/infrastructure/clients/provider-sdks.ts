import { createRequire } from 'node:module';
import { PackageMissingError } from '../../../../common/errors/domain-errors.js';
import type { ConnectionType } from '../../domain/provider-connection.js';

/**
 * The provider SDKs are optional peer dependencies of the package (a team installs only the ones it
 * uses), so none is imported statically: each is loaded on the first call, webhook or text of a
 * connection of its type. Loading on first use also keeps them out of a cold start (Vapi's SDK alone is
 * about 2,500 modules; see docs/architecture.md, "Cold start").
 */
export const PROVIDER_SDK_PACKAGES = {
  twilio: 'twilio',
  vapi: '@vapi-ai/server-sdk',
  retell: 'retell-sdk',
} as const;

export type SdkConnectionType = keyof typeof PROVIDER_SDK_PACKAGES;

/** How a package is found and loaded: Node's own resolution by default, replaceable in tests. */
export interface PackageLoader {
  /** Throws (Node's `MODULE_NOT_FOUND`) when the package cannot be found from here. */
  resolve(name: string): unknown;
  load(name: string): Promise<unknown>;
}

const requireHere = createRequire(import.meta.url);
export const nodePackageLoader: PackageLoader = {
  resolve: (name) => requireHere.resolve(name),
  load: (name) => import(name),
};

/**
 * Whether `err` says that `name` itself cannot be found (not one of its own dependencies, which is a
 * broken install and stays the error it is). Node says `Cannot find package 'twilio' imported from …`
 * for an import and `Cannot find module 'twilio'` for a resolve; test runners' resolvers say alike.
 */
export function isPackageNotFound(err: unknown, name: string): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(`'${name}'`)
  );
}

/** The SDKs of the built-in provider types, each loaded once per process. */
export class ProviderSdks {
  private readonly loading = new Map<SdkConnectionType, Promise<unknown>>();

  constructor(
    private readonly loader: PackageLoader = nodePackageLoader,
    /** Which package each type needs: the real ones, unless a test names one that does not exist. */
    private readonly packages: Record<SdkConnectionType, string> = PROVIDER_SDK_PACKAGES,
  ) {}

  /** The package connections of `type` need when it is not installed; null when they need none or it is. */
  missingPackage(type: ConnectionType): string | null {
    if (!Object.hasOwn(this.packages, type)) return null;
    const name = this.packages[type as SdkConnectionType];
    try {
      this.loader.resolve(name);
      return null;
    } catch (err) {
      if (isPackageNotFound(err, name)) return name;
      throw err;
    }
  }

  /**
   * The SDK module of `type` (its namespace, as `import()` gives it). A missing package becomes a
   * PackageMissingError naming it; a failed load is tried again on the next call (the operator may
   * have installed it meanwhile).
   */
  load<M>(type: SdkConnectionType): Promise<M> {
    let loading = this.loading.get(type);
    if (!loading) {
      const name = this.packages[type];
      loading = this.loader.load(name).catch((err: unknown) => {
        this.loading.delete(type);
        throw isPackageNotFound(err, name)
          ? new PackageMissingError(name, `connections of type '${type}'`)
          : err;
      });
      this.loading.set(type, loading);
    }
    return loading as Promise<M>;
  }
}

/** The process's SDKs, through Node's resolution (what the service uses unless told otherwise). */
export const providerSdks = new ProviderSdks();
