import { PackageMissingError } from '../../../../common/errors/domain-errors.js';
import {
  nodePackageLoader,
  PackageLoader,
  PROVIDER_SDK_PACKAGES,
  ProviderSdks,
} from './provider-sdks.js';

/** A package name no registry holds, so the runner's own resolution fails as it would for `twilio`. */
const ABSENT = 'campaign-calling-service-absent-sdk';
const absent = { twilio: ABSENT, vapi: ABSENT, retell: ABSENT };

describe('ProviderSdks', () => {
  it('names the package a type needs when it is not installed, found by real resolution', async () => {
    const sdks = new ProviderSdks(nodePackageLoader, absent);
    expect(sdks.missingPackage('twilio')).toBe(ABSENT);
    expect(sdks.missingPackage('vapi')).toBe(ABSENT);
    expect(sdks.missingPackage('http')).toBeNull();
    expect(sdks.missingPackage('simulated')).toBeNull();

    const load = sdks.load('retell');
    await expect(load).rejects.toBeInstanceOf(PackageMissingError);
    await expect(load).rejects.toMatchObject({
      packageName: ABSENT,
      message:
        `connections of type 'retell' need the npm package '${ABSENT}', which is not installed: ` +
        `run \`npm install ${ABSENT}\` where the service runs`,
    });
  });

  it('finds the three SDKs this repository installs, without loading them', () => {
    const sdks = new ProviderSdks();
    for (const type of Object.keys(PROVIDER_SDK_PACKAGES)) {
      expect(sdks.missingPackage(type)).toBeNull();
    }
  });

  it("keeps a missing dependency of the SDK (a broken install) as Node's own error", async () => {
    const broken = Object.assign(
      new Error("Cannot find package 'axios' imported from /srv/node_modules/twilio/lib/index.js"),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    const loader: PackageLoader = {
      resolve: () => '/srv/node_modules/twilio/lib/index.js',
      load: () => Promise.reject(broken),
    };
    await expect(new ProviderSdks(loader).load('twilio')).rejects.toBe(broken);
  });

  it('loads each SDK once, and tries again after a failed load (installed meanwhile)', async () => {
    const loads: string[] = [];
    let installed = false;
    const loader: PackageLoader = {
      resolve: (name) => name,
      load: async (name) => {
        loads.push(name);
        if (!installed) {
          throw Object.assign(new Error(`Cannot find package '${name}' imported from /srv/x.js`), {
            code: 'ERR_MODULE_NOT_FOUND',
          });
        }
        return { default: `the ${name} module` };
      },
    };
    const sdks = new ProviderSdks(loader);
    await expect(sdks.load('vapi')).rejects.toMatchObject({
      packageName: '@vapi-ai/server-sdk',
    });
    installed = true;
    expect(await sdks.load('vapi')).toEqual({ default: 'the @vapi-ai/server-sdk module' });
    expect(await sdks.load('vapi')).toEqual({ default: 'the @vapi-ai/server-sdk module' });
    expect(loads).toEqual(['@vapi-ai/server-sdk', '@vapi-ai/server-sdk']);
  });
});
