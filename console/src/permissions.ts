/**
 * What the signed-in person's role may do, so a page offers only that (the service checks every
 * request anyway; this only keeps buttons that would be refused off the screen). The permissions are
 * those `GET /api/v1/me` names for the role (src/common/auth/access.ts's table).
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export const PermissionsContext = createContext<ReadonlySet<string>>(new Set());

/** True when the signed-in role has `permission` (e.g. `do_not_call.remove`). */
export function useMay(permission: string): boolean {
  return useContext(PermissionsContext).has(permission);
}
