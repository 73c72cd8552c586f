/**
 * The admin panels a user's custom system roles open (the reference's `User.can_access_panel`): a panel
 * (`panel_permissions`) whose `can-access` holds, linked (`roles_panels`) to a custom system role the user holds.
 * A user holds a role through a `user_system_roles` row, and the two roles the reference seeds through the user's
 * flags the front end toggles: `is-sales-admin` holds "Sales Admin", `is-marketer` holds "Marketer".
 */
import { sql, type SQL } from 'drizzle-orm';
import { customSysRoles, panelPermissions, rolesPanels, userSystemRoles, users } from '../../db/schema/index.js';
import { forbidden } from '../jsonapi/index.js';
import { isStaff, loggedIn, type Caller } from './caller.js';

/** The seeded roles held through a user's flag (`is-sales-admin`, `is-marketer`): their names bind them to it. */
export const FLAG_ROLES = { isSalesAdmin: 'Sales Admin', isMarketer: 'Marketer' } as const;

/** The tables `panelsOf` reads (the caller lookup's memo drops a caller when one of them changes). */
export const PANEL_TABLES = ['user_system_roles', 'roles_panels', 'panel_permissions', 'custom_sys_roles'] as const;

/** The names of the panels the user of the row `users` opens, as a text array (a column of the caller lookup). */
export const panelsOf = (): SQL<string[]> =>
  sql<string[]>`array(select distinct ${panelPermissions.panelName} from ${panelPermissions}
    join ${rolesPanels} on ${rolesPanels.panelPermissionId} = ${panelPermissions.id}
    join ${customSysRoles} on ${customSysRoles.id} = ${rolesPanels.roleId}
    where ${panelPermissions.canAccess} and (
      ${customSysRoles.id} in (select ${userSystemRoles.roleId} from ${userSystemRoles} where ${userSystemRoles.userId} = ${users.id})
      or (${users.isSalesAdmin} and ${customSysRoles.name} = ${FLAG_ROLES.isSalesAdmin})
      or (${users.isMarketer} and ${customSysRoles.name} = ${FLAG_ROLES.isMarketer}))
    order by 1)`;

/** Whether the caller may use the admin panel `panel`: administrators always, others through a custom system role. */
export const seesPanel = (caller: Caller | null, panel: string): boolean =>
  isStaff(caller) || !!caller?.panels?.includes(panel);

/** The check of a panel's routes: 401 without a login, 403 for a caller the panel is closed to (as for non-admins). */
export const requirePanel =
  (panel: string) =>
  (request: { caller: Caller | null }): void => {
    if (!seesPanel(loggedIn(request), panel)) throw forbidden('Admin access is required');
  };
