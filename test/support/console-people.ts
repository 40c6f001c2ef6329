/**
 * People for the console's browser tests: invited through the API with an admin key and their
 * invitation accepted, as an admin and the person would do; then signed in through the console's form.
 */
import type { Page } from 'playwright-core';
import type { TestApp } from './test-app.js';

export interface Person {
  id: string;
  name: string;
  email: string;
  password: string;
  role: 'admin' | 'operator' | 'viewer';
}

let made = 0;

export async function createPerson(
  service: TestApp,
  adminKey: string,
  role: Person['role'],
  name = `Test ${role}`,
): Promise<Person> {
  made += 1;
  const email = `${role}-${made}-${Date.now()}@clinic.example`;
  const invited = await service
    .http()
    .post('/api/v1/users')
    .set('X-API-Key', adminKey)
    .send({ email, name, role })
    .expect(201);
  const password = `a long password ${made}`;
  await service
    .http()
    .post('/api/v1/invitations/accept')
    .send({ token: invited.body.invitation.token, password })
    .expect(200);
  return { id: invited.body.id as string, name, email, password, role };
}

/** Fills the console's sign-in form (the page shows it) and waits for the header naming the person. */
export async function signIn(page: Page, person: Pick<Person, 'email' | 'password' | 'name'>) {
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const who = page.getByTestId('who').filter({ hasText: person.name });
  const refused = page.locator('#sign-in-error');
  // Either the header names the person, or the form says why not (said in the failure, not a timeout).
  await who.or(refused).first().waitFor();
  if (await refused.count()) throw new Error(`Sign-in refused: ${await refused.textContent()}`);
}

/** Signs out through the header's button and waits for the sign-in form. */
export async function signOut(page: Page) {
  // The sign-out answered first: the form is shown at once, and its fields are not to be typed
  // into before the page has finished with the session.
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/v1/sessions/current')),
    page.getByRole('button', { name: 'Sign out' }).click(),
  ]);
  await page.getByLabel('Email').waitFor();
}
