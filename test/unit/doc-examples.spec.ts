import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import {
  jsonValues,
  resolvePlaceholders,
  shellBlocks,
  variableNames,
} from '../support/doc-examples.js';

function doc(text: string): { root: string; name: string } {
  const root = mkdtempSync(join(tmpdir(), 'doc-examples-spec-'));
  writeFileSync(join(root, 'page.md'), text);
  return { root, name: 'page.md' };
}

describe('doc examples: reading the markdown', () => {
  it('finds run, not-run and variables blocks, and the output shown after a run block', () => {
    const { root, name } = doc(
      [
        '<!-- doc-example: variables -->',
        '```bash',
        'export BASE=http://localhost:3000',
        'export KEY=<the key>   # ccs_...',
        '```',
        '',
        '```bash',
        'curl -s $BASE/x',
        '```',
        '',
        '```json',
        '{"a": 1}',
        '```',
        'text',
        '<!-- doc-example: not run: a deploy -->',
        '',
        '```sh',
        'docker compose up',
        '```',
        '```ts',
        'const x = 1;',
        '```',
      ].join('\n'),
    );
    const blocks = shellBlocks(root, name);
    expect(blocks).toEqual([
      {
        doc: name,
        line: 2,
        code: 'export BASE=http://localhost:3000\nexport KEY=<the key>   # ccs_...',
        mode: 'variables',
        shown: null,
        shownLine: null,
      },
      {
        doc: name,
        line: 7,
        code: 'curl -s $BASE/x',
        mode: 'run',
        shown: '{"a": 1}',
        shownLine: 11,
      },
      {
        doc: name,
        line: 17,
        code: 'docker compose up',
        mode: 'not run',
        shown: null,
        shownLine: null,
      },
    ]);
    expect(variableNames(blocks[0])).toEqual(['BASE', 'KEY']);
  });

  it('refuses a marker without a reason, an unknown marker, and commands without a language', () => {
    const bare = doc('<!-- doc-example: not run -->\n```bash\nnpm ci\n```\n');
    expect(() => shellBlocks(bare.root, bare.name)).toThrow('page.md:1: say why');
    const typo = doc('<!-- doc-example: notrun: x -->\n```bash\nnpm ci\n```\n');
    expect(() => shellBlocks(typo.root, typo.name)).toThrow('page.md:1: not a doc-example marker');
    const unlabelled = doc('```\ncurl -s localhost:3000\n```\n');
    expect(() => shellBlocks(unlabelled.root, unlabelled.name)).toThrow(
      'page.md:1: a block of commands without a language: label it bash',
    );
    const console = doc('```console\n$ npm start\n```\n');
    expect(() => shellBlocks(console.root, console.name)).toThrow('label shell examples bash');
  });
});

describe('doc examples: comparing output', () => {
  it('reads JSON values one after another, as jq and several curls print them', () => {
    expect(jsonValues('"paused"\n{"a": [1, {"b": "}"}]}{"c":null}\n3 true\n[]')).toEqual([
      'paused',
      { a: [1, { b: '}' }] },
      { c: null },
      3,
      true,
      [],
    ]);
    expect(jsonValues(' \n')).toEqual([]);
    expect(() => jsonValues('{"a": 1} oops')).toThrow('not JSON: oops');
  });

  it('lets placeholders stand for what varies, and nothing else', () => {
    const actual = {
      id: '6f1c1f7e-8a3e-4d5e-9a43-1b2c3d4e5f60',
      at: '2026-11-27T20:52:47.001Z',
      reason: 'retry 2 of 2 after NO_RESPONSE at 2026-11-27 20:53 UTC',
      call_log_id: 42,
      url: 'http://localhost:3000/api/v1/targets/6f1c1f7e-8a3e-4d5e-9a43-1b2c3d4e5f60',
    };
    const shown = {
      id: '<uuid>',
      at: '<timestamp>',
      reason: 'retry 2 of 2 after NO_RESPONSE at <time> UTC',
      call_log_id: '<id>',
      url: 'http://localhost:3000/api/v1/targets/<uuid>',
    };
    expect(resolvePlaceholders(shown, actual)).toEqual(actual);
    // A placeholder that does not match stays, so the comparison shows it.
    expect(
      resolvePlaceholders(
        { id: '<uuid>', at: '<timestamp>', n: '<uuid>', reason: 'done at <time>' },
        { id: 'not-a-uuid', at: 'yesterday', n: 7, reason: 'failed at 10:00' },
      ),
    ).toEqual({ id: '<uuid>', at: '<timestamp>', n: '<uuid>', reason: 'done at <time>' });
    expect(resolvePlaceholders(['<id>', { a: '<x>' }], [1, { a: null }])).toEqual([
      1,
      { a: '<x>' },
    ]);
  });
});
