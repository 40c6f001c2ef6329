// Installs a packed tarball into an empty project, as a team's NestJS 12 app would, and checks what it
// brings (`node scripts/check-install-size.js <tarball.tgz> [bound in MB]`):
// - the host's own peers are installed beside it (@nestjs/common, @nestjs/core, @nestjs/platform-express,
//   reflect-metadata, rxjs: what `nest new` gives), at the versions this repository tests with; npm adds
//   the package's other required peers (@nestjs/swagger, terminus, throttler, typeorm, TypeORM,
//   class-validator, class-transformer) itself;
// - no provider SDK comes with it (they are optional peers: a team installs the ones it uses);
// - the package's two entries load with what was installed (no dependency of ours left undeclared);
// - `du -sb node_modules` (every installed file, apparent size, bytes) stays under the bound.
// Prints the size, and exits 1 when any check fails.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [tarballArg, boundArg = '150'] = process.argv.slice(2);
if (!tarballArg) {
  console.error('usage: node scripts/check-install-size.js <tarball.tgz> [bound in MB]');
  process.exit(2);
}
const tarball = resolve(tarballArg);
const boundBytes = Number(boundArg) * 1e6;
const ours = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
const HOST_PACKAGES = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  'reflect-metadata',
  'rxjs',
];
const SDKS = Object.keys(ours.peerDependenciesMeta ?? {}).filter(
  (name) => ours.peerDependenciesMeta[name].optional,
);

const project = mkdtempSync(join(tmpdir(), 'campaign-calling-install-'));
const problems = [];
try {
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'install-size-check', version: '0.0.0', private: true, type: 'module' }),
  );
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
      tarball,
      ...HOST_PACKAGES.map((name) => `${name}@${ours.devDependencies[name]}`),
    ],
    { cwd: project, stdio: ['ignore', 'inherit', 'inherit'] },
  );

  for (const sdk of SDKS) {
    if (existsSync(join(project, 'node_modules', sdk))) {
      problems.push(`${sdk} was installed, though it is an optional peer dependency`);
    }
  }
  try {
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "await import('campaign-calling-service'); await import('campaign-calling-service/testing');",
      ],
      { cwd: project, stdio: ['ignore', 'inherit', 'inherit'] },
    );
  } catch {
    problems.push("the package's entries do not load with what it installs");
  }

  const bytes = Number(
    execFileSync('du', ['-sb', 'node_modules'], { cwd: project, encoding: 'utf8' }).split('\t')[0],
  );
  const packages = execFileSync('npm', ['ls', '--all', '--parseable'], {
    cwd: project,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((line) => line.includes('node_modules')).length;
  const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
  console.log(
    `installed: ${mb(bytes)} in node_modules (${bytes} bytes, ${packages} packages: the package, ` +
      `its dependencies and peers, and ${HOST_PACKAGES.join(', ')}); bound ${mb(boundBytes)}`,
  );
  if (bytes > boundBytes)
    problems.push(`node_modules is ${mb(bytes)}, over the bound of ${mb(boundBytes)}`);
} finally {
  rmSync(project, { recursive: true, force: true });
}
if (problems.length > 0) {
  for (const p of problems) console.error(`install check: ${p}`);
  process.exit(1);
}
