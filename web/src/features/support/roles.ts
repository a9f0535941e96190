import type { StaffRole } from '../../lib/staff/api';

/** The roles the support console's pages are for; an analyst is shown SupportOnly. */
export const SUPPORT_ROLES: readonly StaffRole[] = ['support', 'admin'];
