import { readFileSync } from 'node:fs';
import {
  documentedSection,
  LIFECYCLE_DOC,
  lifecycleSection,
} from '../../scripts/write-target-lifecycle-doc.js';

describe("docs/targets.md's lifecycle", () => {
  it('is the one the declaration draws (npm run docs:lifecycle rewrites it)', () => {
    expect(documentedSection(readFileSync(LIFECYCLE_DOC, 'utf8'))).toBe(lifecycleSection());
  });
});
