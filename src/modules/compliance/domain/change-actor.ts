import type { Principal } from '../../../common/auth/auth-context.js';

/**
 * Who changed the organization's calling rules through the API: an API key (a system) or a person
 * signed in, with the name they had then, so a read names them without asking another module.
 */
export interface ChangeActor {
  type: 'api_key' | 'user';
  id: string;
  name: string;
}

/** The actor of a request: its API key or its signed-in person. */
export const changeActorOf = (principal: Principal): ChangeActor => ({
  type: principal.kind,
  id: principal.id,
  name: principal.name,
});
