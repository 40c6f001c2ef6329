/**
 * The lifecycle section of docs/targets.md, drawn from the declaration
 * (src/modules/target/domain/target-lifecycle.ts): a state diagram and a table of the events. The
 * text between the two markers is generated; test/unit/target-lifecycle-doc.spec.ts fails when it
 * differs, and this script rewrites it:
 *
 *   npm run docs:lifecycle
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  LIFECYCLE_STATUSES,
  TARGET_EVENTS,
  TARGET_LIFECYCLE,
} from '../src/modules/target/domain/target-lifecycle.js';

export const LIFECYCLE_DOC = join(import.meta.dirname, '..', 'docs', 'targets.md');
export const BEGIN =
  '<!-- lifecycle: generated from src/modules/target/domain/target-lifecycle.ts by npm run docs:lifecycle -->';
export const END = '<!-- /lifecycle -->';

const node = (status: string) => status.replace(/[^A-Za-z]/g, '');

/** The generated text: a Mermaid state diagram, then a row per event. */
export function lifecycleSection(): string {
  const lines = ['```mermaid', 'stateDiagram-v2'];
  for (const status of LIFECYCLE_STATUSES) lines.push(`  ${node(status)}: ${status}`);
  lines.push('  [*] --> Pending', '  [*] --> Waiting');
  for (const event of TARGET_EVENTS)
    for (const from of TARGET_LIFECYCLE[event].from)
      for (const to of TARGET_LIFECYCLE[event].to)
        lines.push(`  ${node(from)} --> ${node(to)}: ${event}`);
  lines.push('```', '', '| Event | From | To | Also requires | Sent by |', '|---|---|---|---|---|');
  for (const event of TARGET_EVENTS) {
    const rule = TARGET_LIFECYCLE[event];
    const list = (statuses: readonly string[]) => statuses.map((s) => `\`${s}\``).join(', ');
    lines.push(
      `| \`${event}\` | ${list(rule.from)} | ${list(rule.to)} | ${rule.when ?? ''} | ${rule.by} |`,
    );
  }
  return lines.join('\n');
}

/** The doc's current generated text (between the markers), or null when the markers are missing. */
export function documentedSection(doc: string): string | null {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) return null;
  return doc.slice(begin + BEGIN.length, end).trim();
}

if (process.argv[1] === import.meta.filename) {
  const doc = readFileSync(LIFECYCLE_DOC, 'utf8');
  const current = documentedSection(doc);
  if (current === null) throw new Error(`${LIFECYCLE_DOC}: the lifecycle markers are missing`);
  writeFileSync(LIFECYCLE_DOC, doc.replace(current, lifecycleSection()));
}
