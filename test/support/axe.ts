/**
 * An automated accessibility check of the page shown: axe-core, injected into the page through the
 * DevTools protocol (page.evaluate, so the console's strict CSP needs no exception), run with the WCAG
 * 2.0/2.1/2.2 A and AA rules. Answers the serious and critical violations, each as "rule: target
 * (help)", so a failing test names what to fix.
 */
import { readFileSync } from 'fs';
import { createRequire } from 'module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export async function seriousA11yViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(`(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_AA)} },
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => v.id + ': ' + n.target.join(' ') + ' (' + v.help + ')'));
  })()`);
}
